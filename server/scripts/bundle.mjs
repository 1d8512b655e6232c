// Bundles the compiled server (dist/) into bundle/: what `make start` and the end-to-end tests run.
// Node resolves, reads and compiles each of ~1,500 module files at start-up; one file with lazily
// imported parts split into chunks (viem, the Fabric gateway, the pg driver's callers) starts ~30% faster.
// Native and optional modules stay outside and load from node_modules as before.
// The built-in programs that plugins run (bundle/builtins/) are bundled on their own, one file each.
import { build } from "esbuild";
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outdir = join(root, "bundle");
rmSync(outdir, { recursive: true, force: true });
// Bundled CommonJS dependencies call require() for Node built-ins.
const banner = {
  js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
};
await build({
  entryPoints: [join(root, "dist/main.js")],
  outdir,
  entryNames: "[name]",
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: true,
  // better-sqlite3, pkcs11js and node-pty (the project shell's PTY) are native; pg is only loaded when DATABASE_URL is set; dockerode
  // (ssh2's native crypto inside) only when a container runs.
  external: ["better-sqlite3", "pg", "pkcs11js", "dockerode", "@lydell/node-pty"],
  banner,
  logLevel: "warning",
});
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
  banner,
  logLevel: "warning",
});
