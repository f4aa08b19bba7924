// The real server through vscode-jsonrpc (what vscode-languageclient runs on; VS Code itself
// cannot be downloaded here): start `codectx serve` on fixtures/py_shop/repo, initialize as the
// extension does, wait for the index, open a file and call codectx.context with arguments from
// buildContextArguments. The answer must have exactly the fields of src/lsp_ext.ts.
//
// The server is $CODECTX_BIN, else codectx on PATH, else target/{debug,release}/codectx of this
// repository; the test is skipped, with a message, when there is none.

import assert from "node:assert/strict";
import * as cp from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { after, before, describe, it } from "node:test";
import * as rpc from "vscode-jsonrpc/node";

import { buildContextArguments } from "../context";
import * as ext from "../lsp_ext";
import { findServer, serverSettings } from "../server";

const REPO = path.resolve(__dirname, "../../../..");
const ROOT = path.join(REPO, "fixtures/py_shop/repo");

function serverBinary(): string | undefined {
  if (process.env.CODECTX_BIN) {
    return process.env.CODECTX_BIN;
  }
  const onPath = findServer({ extensionPath: "/nonexistent", envPath: process.env.PATH }).found;
  if (onPath) {
    return onPath.path;
  }
  return ["debug", "release"]
    .map((profile) => path.join(REPO, "target", profile, "codectx"))
    .find((file) => fs.existsSync(file));
}

const SERVER = serverBinary();

describe("codectx serve through vscode-jsonrpc", { skip: SERVER ? false : "no codectx binary (set CODECTX_BIN)" }, () => {
  let child: cp.ChildProcess;
  let connection: rpc.MessageConnection;
  const rootUri = pathToFileURL(ROOT).toString();
  const dbUri = pathToFileURL(path.join(ROOT, "shop/db.py")).toString();

  before(async () => {
    child = cp.spawn(SERVER as string, ["serve"], { cwd: ROOT, stdio: ["pipe", "pipe", "inherit"] });
    connection = rpc.createMessageConnection(
      new rpc.StreamMessageReader(child.stdout!),
      new rpc.StreamMessageWriter(child.stdin!),
    );
    // Requests the server may send, answered as vscode-languageclient would.
    connection.onRequest("workspace/configuration", (params: { items: unknown[] }) =>
      params.items.map(() => serverSettings((_key, defaultValue) => defaultValue)),
    );
    connection.onRequest("client/registerCapability", () => null);
    connection.onRequest("window/workDoneProgress/create", () => null);
    connection.listen();
    await connection.sendRequest("initialize", {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: "repo" }],
      initializationOptions: serverSettings((key, defaultValue) =>
        key === "context.defaultBudget" ? (3000 as typeof defaultValue) : defaultValue,
      ),
      capabilities: { workspace: { configuration: true, workspaceFolders: true }, window: { workDoneProgress: true } },
    });
    await connection.sendNotification("initialized", {});
  });

  after(async () => {
    await connection.sendRequest("shutdown");
    await connection.sendNotification("exit");
    await new Promise((resolve) => child.once("exit", resolve));
    connection.dispose();
  });

  function execute<T>(command: string, args: unknown[]): Promise<T> {
    return connection.sendRequest("workspace/executeCommand", { command, arguments: args });
  }

  it("waits for the index with codectx.status", async () => {
    const status = await execute<ext.StatusResult>(ext.STATUS, [{ wait: true } satisfies ext.StatusParams]);
    assert.equal(status.state, "ready");
    assert.equal(status.files, 17);
    assert.ok(status.definitions > 100);
  });

  it("answers codectx.context with the fields of lsp_ext.ts", async () => {
    const text = fs.readFileSync(path.join(ROOT, "shop/db.py"), "utf8");
    await connection.sendNotification("textDocument/didOpen", {
      textDocument: { uri: dbUri, languageId: "python", version: 1, text },
    });
    const line = text.split("\n").findIndex((l) => l.includes("def connect(self)"));
    const args = buildContextArguments(
      "fix the crash in DatabaseClient.connect when the URL is empty",
      { format: "markdown" },
      { uri: dbUri, languageId: "python", scheme: "file", line, character: 8 },
    );
    const result = await execute<ext.ContextResult>(ext.CONTEXT, [args]);
    assert.deepEqual(Object.keys(result).sort(), [...ext.CONTEXT_RESULT_FIELDS].sort());
    assert.deepEqual(Object.keys(result.intent).sort(), [...ext.INTENT_FIELDS].sort());
    assert.deepEqual(Object.keys(result.budget).sort(), [...ext.BUDGET_FIELDS].sort());
    assert.ok(result.items.length > 0);
    for (const item of result.items) {
      assert.deepEqual(Object.keys(item).sort(), [...ext.ITEM_FIELDS].sort());
    }
    for (const item of result.omitted) {
      assert.deepEqual(Object.keys(item).sort(), [...ext.OMITTED_ITEM_FIELDS].sort());
    }
    for (const file of result.files) {
      assert.deepEqual(Object.keys(file).sort(), [...ext.FILE_FIELDS].sort());
    }
    assert.equal(result.intent.kind, "bug_fix");
    assert.equal(result.budget.limit, 3000, "the default budget comes from initializationOptions");
    assert.ok(result.budget.used <= result.budget.limit);
    assert.ok(result.text.startsWith("# Context"), result.text.slice(0, 100));
    const connect = result.items.find((item) => item.symbol === "DatabaseClient.connect");
    assert.ok(connect, JSON.stringify(result.items.map((item) => item.symbol)));
    assert.equal(connect.uri, dbUri);
    assert.equal(connect.range?.start.line, line);
  });

  it("refuses an invalid argument with InvalidParams naming the field", async () => {
    await assert.rejects(execute(ext.CONTEXT, [{ query: "x", format: "html" }]), (err: rpc.ResponseError<unknown>) => {
      assert.equal(err.code, rpc.ErrorCodes.InvalidParams);
      assert.match(err.message, /format/);
      return true;
    });
  });
});
