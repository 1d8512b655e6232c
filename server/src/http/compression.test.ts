import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type BuiltApp } from "../app.js";
import { loadConfig } from "../config/config.js";
import { ADMIN_PASSWORD } from "../test-support/test-app.js";
import { compressBody, INLINE_COMPRESSION_MAX_BYTES, negotiateEncoding } from "./compression.js";

const root = mkdtempSync(join(tmpdir(), "cl-compress-"));
const web = join(root, "web");
const js = `export const rows = ${JSON.stringify(Array.from({ length: 300 }, (_, i) => ({ i, name: `row-${i}` })))};\n`;
// Precompressed variants with marker bytes the server could not have produced itself.
const jsBr = brotliCompressSync(js);
const jsGz = gzipSync(js, { level: 9 });
let built: BuiltApp;
const admin = { authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString("base64")}` };

beforeAll(async () => {
  mkdirSync(join(web, "assets"), { recursive: true });
  writeFileSync(join(web, "index.html"), "<!doctype html><title>ChainLaunch</title>");
  writeFileSync(join(web, "assets", "app.js"), js);
  writeFileSync(join(web, "assets", "app.js.br"), jsBr);
  writeFileSync(join(web, "assets", "app.js.gz"), jsGz);
  writeFileSync(join(web, "assets", "plain.js"), js);
  built = await buildApp({
    ...loadConfig({ CHAINLAUNCH_ADMIN_PASSWORD: ADMIN_PASSWORD, LOG_LEVEL: "silent" }),
    dataDir: join(root, "data"),
    databaseUrl: undefined,
    webDist: web,
  });
  // Enough rows that the list is well over the 1 KiB threshold.
  for (let i = 0; i < 30; i++) {
    const res = await built.app.inject({
      method: "POST",
      url: "/api/v1/organizations",
      headers: admin,
      payload: { mspId: `Compress${i}MSP`, name: `Compress ${i}`, description: "compression test organization" },
    });
    expect(res.statusCode, res.body).toBe(201);
  }
});
afterAll(async () => {
  await built?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("response compression", () => {
  it("sends JSON as brotli or gzip when the client accepts it, and as it is otherwise", async () => {
    const get = (enc?: string) =>
      built.app.inject({
        method: "GET",
        url: "/api/v1/organizations?limit=100",
        headers: { ...admin, ...(enc ? { "accept-encoding": enc } : {}) },
      });
    const plain = await get();
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const body = JSON.parse(plain.body) as { items?: unknown[] };
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const br = await get("gzip, deflate, br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    const brBody = brotliDecompressSync(br.rawPayload);
    expect(JSON.parse(brBody.toString())).toEqual(body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);

    const gz = await get("gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(body);
  });

  it("leaves small responses alone", async () => {
    const res = await built.app.inject({ method: "GET", url: "/healthz", headers: { "accept-encoding": "br" } });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-encoding"]).toBeUndefined();
  });

  it("serves the web app's precompressed .br/.gz files as they are", async () => {
    const br = await built.app.inject({ method: "GET", url: "/assets/app.js", headers: { "accept-encoding": "br" } });
    expect(br.statusCode).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["content-type"]).toMatch(/javascript/);
    expect(Buffer.compare(br.rawPayload, jsBr)).toBe(0);

    const gz = await built.app.inject({ method: "GET", url: "/assets/app.js", headers: { "accept-encoding": "gzip" } });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(Buffer.compare(gz.rawPayload, jsGz)).toBe(0);

    const none = await built.app.inject({ method: "GET", url: "/assets/app.js" });
    expect(none.headers["content-encoding"]).toBeUndefined();
    expect(none.body).toBe(js);
  });

  it("compresses a built file that has no precompressed variant on the fly", async () => {
    const res = await built.app.inject({
      method: "GET",
      url: "/assets/plain.js",
      headers: { "accept-encoding": "br" },
    });
    expect(res.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(js);
  });

  it("sends a whole JSON body with its Content-Length, and none to a client that asks for none", async () => {
    const get = (headers: Record<string, string | undefined>) =>
      built.app.inject({ method: "GET", url: "/api/v1/organizations?limit=100", headers: { ...admin, ...headers } });
    const plain = await get({});
    const gz = await get({ "accept-encoding": "gzip" });
    expect(gz.headers["transfer-encoding"]).toBeUndefined();
    expect(Number(gz.headers["content-length"])).toBe(gz.rawPayload.length);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    for (const headers of [{ "accept-encoding": "identity" }, { "accept-encoding": "gzip", "x-no-compression": "1" }]) {
      const res = await get(headers);
      expect(res.headers["content-encoding"]).toBeUndefined();
      expect(res.body).toBe(plain.body);
    }
  });

  it("leaves a JSON body over the inline limit to the streams, chunked", async () => {
    for (let i = 30; i < 40; i++) {
      const res = await built.app.inject({
        method: "POST",
        url: "/api/v1/organizations",
        headers: admin,
        payload: { mspId: `Compress${i}MSP`, name: `Compress ${i}` },
      });
      expect(res.statusCode).toBe(201);
    }
    const url = "/api/v1/organizations?limit=100";
    const plain = await built.app.inject({ method: "GET", url, headers: admin });
    expect(plain.rawPayload.length).toBeGreaterThan(INLINE_COMPRESSION_MAX_BYTES);
    const gz = await built.app.inject({ method: "GET", url, headers: { ...admin, "accept-encoding": "gzip" } });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.headers["content-length"]).toBeUndefined();
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
  });

  it("compresses one organization (over the threshold) as the client asks", async () => {
    const one = await built.app.inject({ method: "GET", url: "/api/v1/organizations/1", headers: admin });
    expect(one.rawPayload.length).toBeGreaterThan(1024);
    const br = await built.app.inject({
      method: "GET",
      url: "/api/v1/organizations/1",
      headers: { ...admin, "accept-encoding": "br;q=0.5, gzip" },
    });
    expect(br.headers["content-encoding"]).toBe("gzip");
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(br.rawPayload).toString()).toBe(one.body);
  });
});

describe("negotiateEncoding", () => {
  it.each([
    [undefined, null],
    ["", null],
    ["identity", null],
    ["gzip, deflate, br", "br"],
    ["gzip", "gzip"],
    ["x-gzip", "gzip"],
    ["*", "gzip"],
    ["deflate", null],
    ["br;q=0, gzip", "gzip"],
    ["br;q=0.5, gzip;q=0.8", "gzip"],
    ["GZIP;q=1, BR;q=1", "br"],
    ["gzip;q=0, br;q=0", null],
  ])("%j -> %j", (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

describe("compressBody", () => {
  it("round-trips bodies in both encodings", () => {
    for (const size of [2000, INLINE_COMPRESSION_MAX_BYTES]) {
      const body = Buffer.from(JSON.stringify(Array.from({ length: size / 20 }, (_, i) => ({ i, r: Math.random() }))));
      expect(gunzipSync(compressBody(body, "gzip")).equals(body)).toBe(true);
      expect(brotliDecompressSync(compressBody(body, "br")).equals(body)).toBe(true);
    }
  });
});
