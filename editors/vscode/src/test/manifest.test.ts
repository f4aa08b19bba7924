// package.json agrees with the code: the language model tool's input schema is the argument
// object of codectx.context, the settings cover what the server reads, and every command
// has a title.

import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";

import { CONTEXT_PARAMS_FIELDS, MAX_BUDGET, MIN_BUDGET } from "../lsp_ext";

const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../package.json"), "utf8"));
const extensionSource = fs.readFileSync(path.resolve(__dirname, "../../src/extension.ts"), "utf8");

describe("package.json", () => {
  it("contributes the codectx_context tool with the command's arguments as its input schema", () => {
    const tools = manifest.contributes.languageModelTools;
    assert.equal(tools.length, 1);
    assert.equal(tools[0].name, "codectx_context");
    const schema = tools[0].inputSchema;
    assert.deepEqual(Object.keys(schema.properties), [...CONTEXT_PARAMS_FIELDS]);
    assert.deepEqual(schema.required, ["query"]);
    assert.equal(schema.properties.budget.minimum, MIN_BUDGET);
    assert.equal(schema.properties.budget.maximum, MAX_BUDGET);
    assert.match(extensionSource, /registerTool\(TOOL_NAME/);
  });

  it("has a setting with a description and a default for every server setting", () => {
    const properties = manifest.contributes.configuration.properties;
    for (const key of [
      "exclude",
      "maxFileSize",
      "languages",
      "context.defaultBudget",
      "symbols.limit",
      "syntaxCache",
      "server.path",
    ]) {
      const setting = properties[`codectx.${key}`];
      assert.ok(setting, `codectx.${key} is missing`);
      assert.ok(setting.markdownDescription || setting.description, `codectx.${key} has no description`);
      assert.ok("default" in setting, `codectx.${key} has no default`);
    }
    assert.equal(properties["codectx.maxFileSize"].default, 1048576);
    assert.equal(properties["codectx.context.defaultBudget"].default, 8000);
    assert.equal(properties["codectx.symbols.limit"].default, 200);
    assert.equal(properties["codectx.syntaxCache"].default, true);
  });

  it("registers every contributed command, and none with a server command's id", () => {
    for (const command of manifest.contributes.commands) {
      assert.ok(command.title && command.category === "codectx", command.command);
      assert.ok(extensionSource.includes(`"${command.command}"`), `${command.command} is not registered`);
      // vscode-languageclient registers the server's commands itself; the same id would clash.
      assert.ok(!["codectx.context", "codectx.status", "codectx.reindex"].includes(command.command));
    }
  });
});
