// Bundles the compiled server (dist/) into bundle/: what `make start` and the end-to-end tests run.
//
// Start-up (issue 34): Node resolves, reads and compiles each of ~1,500 module files at start-up, and
// Node 20 keeps no compile cache for ES modules. So the server is one CommonJS file (bundle/server.cjs),
// which bundle/main.js (scripts/bundle-main.cjs) compiles with a V8 code cache written here, by one run
// of the bundle that builds the whole app (`openapi`): a start then deserializes code instead of parsing
// and compiling it. Parts that only some requests need stay lazy inside the file (esbuild evaluates a
// lazily imported module on first use), and so do the Fabric protobuf namespaces (below).
// Native and optional modules stay outside and load from node_modules as before.
// The built-in programs that plugins run (bundle/builtins/) are bundled on their own, one ES module each.
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { copyFileSync, chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundlePlugins } from "./bundle-plugins.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outdir = join(root, "bundle");
rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });

await build({
  entryPoints: [join(root, "dist/main.js")],
  outfile: join(outdir, "server.cjs"),
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  sourcemap: true,
  // better-sqlite3, pkcs11js and node-pty (the project shell's PTY) are native; pg is only loaded when DATABASE_URL is set; dockerode
  // (ssh2's native crypto inside) only when a container runs.
  external: ["better-sqlite3", "pg", "pkcs11js", "dockerode", "@lydell/node-pty"],
  // The sources are ES modules that find files beside themselves through import.meta.url.
  define: { "import.meta.url": "__bundleUrl" },
  banner: { js: "var __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  plugins: bundlePlugins(root),
  charset: "ascii",
  minifyWhitespace: true,
  logLevel: "warning",
});
// ASCII only: main.js reads the file as latin1, a one-byte string (UTF-8 with any other character makes a
// two-byte string of twice the size, and decoding it took ~40 ms). esbuild escapes strings; what is left
// (comments, regular expression literals) takes \uXXXX escapes, which mean the same in both.
const serverFile = join(outdir, "server.cjs");
writeFileSync(
  serverFile,
  readFileSync(serverFile, "utf8").replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  ),
);
// bundle/ holds CommonJS (main.js, and server.cjs, which main.js runs); builtins/ holds ES modules.
writeFileSync(join(outdir, "package.json"), `${JSON.stringify({ type: "commonjs" })}\n`);
copyFileSync(join(root, "scripts/bundle-main.cjs"), join(outdir, "main.js"));
chmodSync(join(outdir, "main.js"), 0o755);

// fabric-rest-gateway.js runs as `node <builtins>/fabric-rest-gateway.js` from a plugin's folder,
// where there is no node_modules: fabric-gateway and grpc-js go inside, with no chunks.
await build({
  entryPoints: [join(root, "dist/builtins/fabric-rest-gateway.js")],
  outfile: join(outdir, "builtins/fabric-rest-gateway.js"),
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // Only fabric-gateway's HSM signer needs it, and it is loaded when that signer is made.
  external: ["pkcs11js"],
  // Bundled CommonJS dependencies call require() for Node built-ins.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: "warning",
});
writeFileSync(join(outdir, "builtins/package.json"), `${JSON.stringify({ type: "module" })}\n`);

// The code cache: one run of the bundle that builds the whole app (on a throwaway SQLite database) and
// writes the cache at its exit.
const scratch = mkdtempSync(join(tmpdir(), "chainlaunch-code-cache-"));
try {
  execFileSync(process.execPath, [join(outdir, "main.js"), "openapi", "--out", join(scratch, "openapi.json")], {
    env: { ...process.env, CHAINLAUNCH_CODE_CACHE: "write", CHAINLAUNCH_DATA: scratch, LOG_LEVEL: "silent" },
    stdio: ["ignore", "ignore", "inherit"],
  });
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
