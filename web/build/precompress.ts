import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { extname, join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Plugin } from "vite";

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text formats worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = new Set([".js", ".mjs", ".css", ".html", ".svg", ".json", ".txt", ".map", ".webmanifest"]);
/** The server does not compress responses below 1 KiB either. */
const MIN_BYTES = 1024;

export interface PrecompressResult {
  file: string;
  bytes: number;
  br?: number;
  gz?: number;
}

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) beside every compressible
 * file of at least 1 KiB under `dir`, keeping only variants that are smaller than the file itself.
 * The server's static handler sends them as they are to clients that accept the encoding.
 */
export async function precompressDir(dir: string): Promise<PrecompressResult[]> {
  const results: PrecompressResult[] = [];
  for await (const file of files(dir)) {
    if (!COMPRESSIBLE.has(extname(file)) || (await stat(file)).size < MIN_BYTES) continue;
    const body = await readFile(file);
    const result: PrecompressResult = { file, bytes: body.length };
    const br = await brotli(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    });
    if (br.length < body.length) {
      await writeFile(`${file}.br`, br);
      result.br = br.length;
    }
    const g = await gz(body, { level: 9 });
    if (g.length < body.length) {
      await writeFile(`${file}.gz`, g);
      result.gz = g.length;
    }
    results.push(result);
  }
  return results;
}

/** Vite plugin: precompresses the build output once the bundle is written. */
export function precompress(): Plugin {
  let outDir = "dist";
  return {
    name: "chainlaunch-precompress",
    apply: "build",
    configResolved(config) {
      outDir = config.build.outDir.startsWith("/") ? config.build.outDir : join(config.root, config.build.outDir);
    },
    async closeBundle() {
      const results = await precompressDir(outDir);
      const total = results.reduce((n, r) => n + r.bytes, 0);
      const brTotal = results.reduce((n, r) => n + (r.br ?? r.bytes), 0);
      this.info?.(`precompressed ${results.length} files: ${total} bytes, ${brTotal} as brotli`);
    },
  };
}
