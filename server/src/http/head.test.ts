import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listenLocal, rawRequest } from "../test-support/raw-http.js";
import { createTestApp, type TestApp } from "../test-support/test-app.js";

// HEAD is routed as the GET it mirrors (app.ts: no HEAD twin per GET route). Over a real socket, because
// that is where Node leaves the body out.

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp("sqlite");
  base = await listenLocal(t.app);
});
afterAll(async () => t.close());

const send = (method: string, path: string, headers: Record<string, string> = {}) =>
  rawRequest(base, method, path, headers);

describe("HEAD", () => {
  it("answers like the GET of the same path, without its body", async () => {
    for (const path of ["/healthz", "/api/v1/organizations", "/api/v1/users"]) {
      const get = await send("GET", path, t.admin);
      const head = await send("HEAD", path, t.admin);
      expect(get.status, path).toBe(200);
      expect(head.status, path).toBe(200);
      expect(head.body, path).toBe("");
      expect(head.headers["content-type"], path).toBe(get.headers["content-type"]);
      expect(head.headers["content-length"], path).toBe(String(Buffer.byteLength(get.body)));
    }
  });

  it("is refused like the GET: without credentials, and where there is no GET", async () => {
    const anonymous = await send("HEAD", "/api/v1/organizations");
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toBe("");
    expect((await send("HEAD", "/api/v1/auth/login")).status).toBe(404);
    expect((await send("HEAD", "/api/v1/no-such-path", t.admin)).status).toBe(404);
  });

  it("is what inject() answers too, and the route list still has no HEAD entries", async () => {
    const head = await t.app.inject({ method: "HEAD", url: "/api/v1/organizations", headers: t.admin });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe("");
    expect(t.routes.some((r) => r.method === "HEAD")).toBe(false);
    expect(t.routes.filter((r) => r.method === "GET").length).toBeGreaterThan(150);
  });
});
