// Unit tests of finding the server and building its settings (src/server.ts).

import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { findServer, notFoundMessage, serverSettings } from "../server";

function files(...paths: string[]): (file: string) => boolean {
  return (file) => paths.includes(file);
}

describe("findServer", () => {
  it("prefers the setting, then the bundled binary, then PATH", () => {
    const all = files("/opt/codectx", "/ext/server/codectx", "/usr/bin/codectx");
    const base = { extensionPath: "/ext", envPath: "/bin:/usr/bin", platform: "linux" as const, isFile: all };
    assert.deepEqual(findServer({ ...base, configured: "/opt/codectx" }).found, { path: "/opt/codectx", source: "setting" });
    assert.deepEqual(findServer({ ...base, configured: null }).found, { path: "/ext/server/codectx", source: "bundled" });
    assert.deepEqual(findServer({ ...base, isFile: files("/usr/bin/codectx") }).found, {
      path: "/usr/bin/codectx",
      source: "PATH",
    });
  });

  it("does not fall back when the setting points nowhere", () => {
    const res = findServer({
      configured: "/nope/codectx",
      extensionPath: "/ext",
      envPath: "/usr/bin",
      platform: "linux",
      isFile: files("/usr/bin/codectx"),
    });
    assert.equal(res.found, undefined);
    assert.deepEqual(res.tried, ["/nope/codectx"]);
    assert.match(notFoundMessage("/nope/codectx"), /codectx.server.path does not exist: \/nope\/codectx/);
  });

  it("lists what it tried and says how to fix it", () => {
    const res = findServer({ extensionPath: "/ext", envPath: "/bin::/usr/bin", platform: "linux", isFile: files() });
    assert.equal(res.found, undefined);
    assert.deepEqual(res.tried, ["/ext/server/codectx", "/bin/codectx", "/usr/bin/codectx"]);
    assert.match(notFoundMessage(null), /cargo build --release -p codectx/);
    assert.match(notFoundMessage(null), /codectx.server.path/);
  });

  it("looks for codectx.exe on Windows", () => {
    const res = findServer({ extensionPath: "/ext", envPath: "", platform: "win32", isFile: files() });
    assert.match(res.tried[0], /codectx\.exe$/);
  });
});

describe("serverSettings", () => {
  it("sends only the keys the server knows, nested as it reads them", () => {
    const values: Record<string, unknown> = {
      exclude: ["vendor/**"],
      maxFileSize: 2048,
      "context.defaultBudget": 4000,
      syntaxCache: false,
      "server.path": "/opt/codectx",
      "context.format": "markdown",
    };
    const get = <T>(key: string, defaultValue: T): T => (key in values ? (values[key] as T) : defaultValue);
    assert.deepEqual(serverSettings(get), {
      exclude: ["vendor/**"],
      maxFileSize: 2048,
      languages: [],
      context: { defaultBudget: 4000 },
      symbols: { limit: 200 },
      syntaxCache: false,
    });
  });
});
