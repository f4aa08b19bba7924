// Bundles src/extension.ts and everything it imports (vscode-languageclient and its
// dependencies) into dist/extension.js, the `main` of package.json, so the .vsix ships one
// JavaScript file instead of node_modules. `vscode` is provided by the extension host.
// esbuild does not type-check: `npm run lint` (and vscode:prepublish) run tsc for that.
//
//   node scripts/build.js            minified, no source map (what `npm run package` ships)
//   node scripts/build.js --dev      unminified, with a source map (for debugging)
//   node scripts/build.js --watch    --dev, rebuilding on changes
//   node scripts/build.js --outfile F   writes the bundle to F instead (the bundle test does)
const fs = require("node:fs");
const path = require("node:path");
const { builtinModules } = require("node:module");
const esbuild = require("esbuild");

const root = path.resolve(__dirname, "..");
const args = process.argv.slice(2);
const watch = args.includes("--watch");
const dev = watch || args.includes("--dev");
const outfileIdx = args.indexOf("--outfile");
const outfile = outfileIdx >= 0 ? path.resolve(args[outfileIdx + 1]) : path.join(root, "dist/extension.js");

// vscode-languageclient force-kills a server that outlives `stop()` with this script, which it
// looks up next to its own code (`__dirname`), that is next to the bundle.
const TERMINATE_SCRIPT = path.join(root, "node_modules/vscode-languageclient/lib/node/terminateProcess.sh");

const BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/** @type {import("esbuild").BuildOptions} */
const options = {
  absWorkingDir: root,
  entryPoints: ["src/extension.ts"],
  outfile,
  bundle: true,
  platform: "node",
  format: "cjs",
  // VS Code 1.95 (engines.vscode) runs extensions on Node 20.
  target: "node20",
  external: ["vscode"],
  minify: !dev,
  sourcemap: dev,
  metafile: true,
  logLevel: "warning",
};

/** Fails when the bundle still requires anything besides `vscode` and node's built-in modules. */
function checkExternals(metafile) {
  for (const [file, output] of Object.entries(metafile.outputs)) {
    for (const imported of output.imports) {
      if (imported.external && imported.path !== "vscode" && !BUILTINS.has(imported.path)) {
        throw new Error(`${file} requires ${imported.path}, which is not bundled`);
      }
    }
  }
}

function copyTerminateScript() {
  const target = path.join(path.dirname(outfile), "terminateProcess.sh");
  fs.copyFileSync(TERMINATE_SCRIPT, target);
  fs.chmodSync(target, 0o755);
}

async function main() {
  if (watch) {
    const ctx = await esbuild.context({
      ...options,
      plugins: [
        {
          name: "report",
          setup(build) {
            build.onEnd((result) => {
              if (result.errors.length === 0) {
                checkExternals(result.metafile);
                copyTerminateScript();
                console.log(`[watch] built ${path.relative(root, outfile)}`);
              }
            });
          },
        },
      ],
    });
    await ctx.watch();
    return;
  }
  // A source map of an earlier --dev build would no longer match.
  fs.rmSync(`${outfile}.map`, { force: true });
  const result = await esbuild.build(options);
  checkExternals(result.metafile);
  copyTerminateScript();
  const kb = (fs.statSync(outfile).size / 1024).toFixed(1);
  console.log(`bundled ${path.relative(root, outfile)} (${kb} KB)`);
}

main().catch((err) => {
  console.error(err.message ?? err);
  process.exit(1);
});
