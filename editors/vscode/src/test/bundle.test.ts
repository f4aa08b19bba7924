// The bundle that package.json's `main` names and the .vsix ships instead of node_modules:
// scripts/build.js (esbuild) builds it from src/extension.ts, and it loads with `vscode` (a stub
// here) as its only require besides node's built-in modules, exporting activate and deactivate.

import assert from "node:assert/strict";
import * as cp from "node:child_process";
import * as fs from "node:fs";
import Module, { builtinModules } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { after, describe, it } from "node:test";

const ROOT = path.resolve(__dirname, "../..");

type Load = (request: string, parent: unknown, isMain: boolean) => unknown;
const loader = Module as unknown as { _load: Load };

/** Stands for any value of the `vscode` API: every property, call and `new` gives another stub. */
function stub(): unknown {
  return new Proxy(function () {}, {
    get: (_target, prop) => (prop === "then" ? undefined : prop === Symbol.toPrimitive ? () => "" : stub()),
    apply: () => stub(),
    construct: () => stub() as object,
  });
}

describe("the extension bundle", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "codectx-bundle-"));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("is package.json's main, and .vscodeignore ships it without node_modules or out/", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
    assert.equal(manifest.main, "./dist/extension.js");
    assert.match(manifest.scripts["vscode:prepublish"], /scripts\/build\.js|npm run bundle/);
    const ignore = fs.readFileSync(path.join(ROOT, ".vscodeignore"), "utf8").split(/\r?\n/);
    assert.ok(ignore.includes("**"), ".vscodeignore should leave out everything not listed");
    assert.ok(ignore.includes("!dist/extension.js"));
    assert.ok(!ignore.some((line) => /^!(node_modules|out)\b/.test(line)));
  });

  it("builds, and loads requiring only vscode and node's built-in modules", () => {
    const outfile = path.join(dir, "extension.js");
    cp.execFileSync(process.execPath, [path.join(ROOT, "scripts/build.js"), "--outfile", outfile], { stdio: "pipe" });
    assert.ok(fs.statSync(path.join(dir, "terminateProcess.sh")).mode & 0o100, "terminateProcess.sh is not executable");

    const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
    const requested = new Set<string>();
    const vscode = stub();
    const load = loader._load;
    loader._load = function (request, parent, isMain) {
      requested.add(request);
      return request === "vscode" ? vscode : load.call(this, request, parent, isMain);
    };
    let ext: Record<string, unknown>;
    try {
      ext = load.call(loader, outfile, null, false) as Record<string, unknown>;
    } finally {
      loader._load = load;
    }
    assert.deepEqual([...requested].filter((request) => request !== "vscode" && !builtins.has(request)), []);
    assert.ok(requested.has("vscode"));
    assert.equal(typeof ext.activate, "function");
    assert.equal(typeof ext.deactivate, "function");
  });
});
