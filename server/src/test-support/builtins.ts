import { build } from "esbuild";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../builtins");
const builds = new Map<string, Promise<string>>();

/**
 * Bundles the built-in programs from source into `outDir` (`<outDir>/fabric-rest-gateway.js`), as
 * `npm run build` does into bundle/builtins/, and returns `outDir`. Point the console at it with
 * CHAINLAUNCH_BUILTINS_DIR. Each folder is built once per process.
 */
export function buildBuiltins(outDir: string): Promise<string> {
  const dir = resolve(outDir);
  let done = builds.get(dir);
  if (!done) {
    done = (async () => {
      mkdirSync(dir, { recursive: true });
      const out = join(dir, "fabric-rest-gateway.js");
      const result = await build({
        entryPoints: [join(SRC, "fabric-rest-gateway.ts")],
        outfile: out,
        write: false,
        bundle: true,
        format: "esm",
        platform: "node",
        target: "node20",
        external: ["pkcs11js"],
        banner: {
          js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
        },
        logLevel: "warning",
      });
      // Test files run in parallel processes that may share a folder: none may see half a file.
      const tmp = `${out}.${process.pid}.tmp`;
      writeFileSync(tmp, result.outputFiles[0]?.contents ?? "");
      renameSync(tmp, out);
      return dir;
    })();
    // A failed build is not cached, so the next caller sees its own error.
    done.catch(() => builds.delete(dir));
    builds.set(dir, done);
  }
  return done;
}
