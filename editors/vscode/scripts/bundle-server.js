// Copies ../../target/release/codectx into server/ so the .vsix bundles it (the extension
// prefers a bundled binary over PATH). Without a release build the package has no binary and
// the extension uses codectx.server.path or PATH.
const fs = require("node:fs");
const path = require("node:path");

const exe = process.platform === "win32" ? "codectx.exe" : "codectx";
const built = path.resolve(__dirname, "../../../target/release", exe);
const target = path.resolve(__dirname, "../server", exe);

fs.rmSync(path.dirname(target), { recursive: true, force: true });
if (fs.existsSync(built)) {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.copyFileSync(built, target);
  fs.chmodSync(target, 0o755);
  console.log(`bundled ${built}`);
} else {
  console.log(`no ${built}: packaging without a bundled server`);
}
