import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type BuiltApp } from "../app.js";
import { loadConfig } from "../config/config.js";
import { ADMIN_PASSWORD } from "../test-support/test-app.js";

/**
 * The web app is served by one wildcard route limited to the files the build wrote (issue 34: a route
 * per file was a tenth of the start-up). What the per-file routes did must hold: files are sent
 * (precompressed where the build wrote .br/.gz), page paths get index.html, and nothing else on disk is.
 */
const root = mkdtempSync(join(tmpdir(), "cl-webapp-"));
const web = join(root, "web");
const INDEX = "<!doctype html><title>ChainLaunch</title>";
const JS = `export const x = ${JSON.stringify("y".repeat(4000))};\n`;
let built: BuiltApp;

beforeAll(async () => {
  mkdirSync(join(web, "assets", "nested"), { recursive: true });
  writeFileSync(join(web, "index.html"), INDEX);
  writeFileSync(join(web, "assets", "app.js"), JS);
  writeFileSync(join(web, "assets", "app.js.br"), brotliCompressSync(JS));
  writeFileSync(join(web, "assets", "nested", "logo.svg"), "<svg/>");
  writeFileSync(join(web, ".env"), "SECRET=1");
  writeFileSync(join(web, "assets", ".hidden.js"), "secret");
  // A file beside the web app's folder: the wildcard must not reach it.
  writeFileSync(join(root, "outside.txt"), "outside");
  built = await buildApp({
    ...loadConfig({ CHAINLAUNCH_ADMIN_PASSWORD: ADMIN_PASSWORD, LOG_LEVEL: "silent" }),
    dataDir: join(root, "data"),
    databaseUrl: undefined,
    webDist: web,
  });
});
afterAll(async () => {
  await built?.close();
  rmSync(root, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) => built.app.inject({ method: "GET", url, headers });

describe("serving the web app", () => {
  it("sends the built files, nested ones too, precompressed where the build wrote a variant", async () => {
    const plain = await get("/assets/app.js");
    expect(plain.statusCode).toBe(200);
    expect(plain.body).toBe(JS);
    const br = await get("/assets/app.js", { "accept-encoding": "br" });
    expect(br.statusCode).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    const svg = await get("/assets/nested/logo.svg");
    expect(svg.statusCode).toBe(200);
    expect(svg.body).toBe("<svg/>");
    expect((await built.app.inject({ method: "HEAD", url: "/assets/app.js" })).statusCode).toBe(200);
  });

  it("answers page paths, the root and folders with index.html", async () => {
    for (const path of ["/", "/nodes", "/nodes/fabric/3", "/assets/", "/assets/nested"]) {
      const res = await get(path);
      expect(res.statusCode, `${path} ${res.body}`).toBe(200);
      expect(res.headers["content-type"], path).toMatch(/^text\/html/);
      expect(res.body, path).toBe(INDEX);
    }
  });

  it("sends no dot file, nothing outside the folder, and a JSON 404 for a missing file or API path", async () => {
    for (const path of [
      "/.env",
      "/assets/.hidden.js",
      "/assets/missing.js",
      "/../outside.txt",
      "/assets/..%2f..%2foutside.txt",
      "/%2e%2e/outside.txt",
      "/api/v1/no-such-thing",
    ]) {
      const res = await get(path);
      expect(res.statusCode, path).toBe(404);
      expect(res.json(), path).toMatchObject({ error: "NOT_FOUND" });
    }
  });
});
