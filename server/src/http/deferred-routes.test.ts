import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listenLocal, rawRequest } from "../test-support/raw-http.js";
import { createTestApp, type TestApp } from "../test-support/test-app.js";
import { recordRoutes, replay, segmentOf, type RouteEntry } from "./deferred-routes.js";

// Module routes are declared on a stand-in and added to Fastify per path segment on first use
// (http/deferred-routes.ts). A request must be answered exactly as when the server held every route.

describe("recordRoutes", () => {
  async function recorded(declare: (api: FastifyInstance) => void) {
    const real = Fastify();
    const routes: RouteEntry[] = [];
    let calls: ReturnType<typeof recordRoutes>["calls"] = [];
    await real.register(
      async (api) => {
        const recording = recordRoutes(api, { prefix: "/api/v1", routes });
        calls = recording.calls;
        declare(recording.api);
      },
      { prefix: "/api/v1" },
    );
    await real.ready();
    return { real, routes, calls };
  }

  it("lists routes in the order Fastify registered them, nested registers after their parent", async () => {
    const handler = async () => ({ ok: true });
    const { real, routes } = await recorded((api) => {
      api.get("/a", { config: { access: "public" } }, handler);
      api.register(async (scope) => {
        scope.addContentTypeParser("application/x-thing", { parseAs: "string" }, (_req, body, done) =>
          done(null, body),
        );
        scope.post("/b/upload", { config: { access: "public", audit: "organization.create" } }, handler);
      });
      api.route({ method: ["PUT", "DELETE"], url: "/c/:id", config: { access: "public" }, handler });
    });
    expect(routes.map((r) => `${r.method} ${r.url} ${r.audit ?? ""}`.trim())).toEqual([
      "GET /api/v1/a",
      "PUT /api/v1/c/:id",
      "DELETE /api/v1/c/:id",
      "POST /api/v1/b/upload organization.create",
    ]);
    // Nothing was added to the server itself.
    expect(real.hasRoute({ method: "GET", url: "/api/v1/a" })).toBe(false);
    await real.close();
  });

  it("refuses a route without an access rule, and any scope method it does not carry over, by name", async () => {
    await expect(recorded((api) => api.get("/x", async () => "x"))).rejects.toThrow(
      "route GET /api/v1/x declares no access rule",
    );
    await expect(recorded((api) => api.decorate("thing", 1))).rejects.toThrow(/decorate is not available/);
    await expect(recorded((api) => api.addHook("onRequest", async () => undefined))).rejects.toThrow(
      /"onRequest" hook on the API scope/,
    );
  });

  it("passes server hooks to the server at once", async () => {
    let ready = 0;
    const { real } = await recorded((api) => {
      api.addHook("onReady", async () => void ready++);
    });
    expect(ready).toBe(1);
    await real.close();
  });

  it("replays a segment's routes, with the content-type parsers of their scope, on a real instance", async () => {
    const { real, calls } = await recorded((api) => {
      api.get("/a/one", { config: { access: "public" } }, async () => "one");
      api.get("/b/two", { config: { access: "public" } }, async () => "two");
      api.register(async (scope) => {
        scope.addContentTypeParser("text/x-echo", { parseAs: "string" }, (_req, body, done) => done(null, body));
        scope.post("/a/echo", { config: { access: "public" } }, async (req) => req.body);
      });
    });
    const into = Fastify();
    await into.register(async (api) => replay(calls, api, (c) => segmentOf(c.path) === "a"), { prefix: "/api/v1" });
    expect((await into.inject({ url: "/api/v1/a/one" })).body).toBe("one");
    expect((await into.inject({ url: "/api/v1/b/two" })).statusCode).toBe(404);
    const echo = await into.inject({
      method: "POST",
      url: "/api/v1/a/echo",
      headers: { "content-type": "text/x-echo" },
      payload: "hello",
    });
    expect(echo.body).toBe("hello");
    await into.close();
    await real.close();
  });
});

describe("deferred routes in the server", () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp("sqlite");
    base = await listenLocal(t.app);
  });
  afterAll(async () => t.close());

  const send = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    rawRequest(base, method, path, headers, body);

  it("starts with no segment added, and adds a segment's routes on its first request only", async () => {
    expect(t.deferred.made()).toEqual([]);
    const [a, b] = await Promise.all([
      send("GET", "/api/v1/organizations", t.admin),
      send("GET", "/api/v1/organizations?limit=1", t.admin),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(t.deferred.made()).toEqual(["organizations"]);
    expect(JSON.parse(a.body)).toMatchObject({ items: [] });
  });

  it("answers with the server's headers, request id, auth and validation", async () => {
    const ok = await send("GET", "/api/v1/users", { ...t.admin, "x-request-id": "deferred-test-1" });
    expect(ok.status).toBe(200);
    expect(ok.headers["x-request-id"]).toBe("deferred-test-1");
    expect(ok.headers["x-frame-options"]).toBe("DENY");
    expect((await send("GET", "/api/v1/users")).status).toBe(401);
    const bad = await send(
      "POST",
      "/api/v1/organizations",
      { ...t.admin, "content-type": "application/json" },
      JSON.stringify({ mspId: 7 }),
    );
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).message).toMatch(/mspId/);
  });

  it("answers an unknown path with the same 404, below a known segment or not", async () => {
    for (const path of ["/api/v1/organizations/x/y/z", "/api/v1/no-such-segment", "/api/v1/"]) {
      const res = await send("GET", path, t.admin);
      expect(res.status, path).toBe(404);
      expect(JSON.parse(res.body), path).toMatchObject({ error: "NOT_FOUND", message: `route GET ${path} not found` });
    }
    // A method no deferred route has never reaches them.
    expect((await send("PATCH", "/api/v1/organizations", t.admin)).status).toBe(404);
  });

  it("serves the OpenAPI document of every route, as inject() does any route", async () => {
    const doc = (await t.app.inject({ url: "/api/v1/openapi.json" })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toContain("/organizations");
    expect(Object.keys(doc.paths).length).toBeGreaterThan(250);
    const keys = await t.app.inject({ url: "/api/v1/keys", headers: t.admin });
    expect(keys.statusCode).toBe(200);
    expect(t.deferred.made()).toContain("keys");
  });
});
