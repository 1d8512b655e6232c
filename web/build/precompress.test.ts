import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, expect, it } from "vitest";
import { precompressDir } from "./precompress";

const dir = mkdtempSync(join(tmpdir(), "cl-precompress-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("writes .br and .gz beside compressible files of 1 KiB or more, and they decompress to the original", async () => {
  mkdirSync(join(dir, "assets"));
  const js = "export const greeting = 'hello';\n".repeat(200);
  writeFileSync(join(dir, "assets", "app.js"), js);
  writeFileSync(join(dir, "index.html"), "<!doctype html><title>x</title>");
  writeFileSync(join(dir, "assets", "logo.png"), Buffer.alloc(4096, 7));

  const results = await precompressDir(dir);

  expect(results.map((r) => r.file)).toEqual([join(dir, "assets", "app.js")]);
  expect(brotliDecompressSync(readFileSync(join(dir, "assets", "app.js.br"))).toString()).toBe(js);
  expect(gunzipSync(readFileSync(join(dir, "assets", "app.js.gz"))).toString()).toBe(js);
  // Under 1 KiB, or not a text format: left alone.
  expect(existsSync(join(dir, "index.html.br"))).toBe(false);
  expect(existsSync(join(dir, "assets", "logo.png.br"))).toBe(false);
});
