import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PASSWORD, createTestApp, dialects, type TestApp } from "../test-support/test-app.js";
import { SECURITY_HEADERS } from "./security-headers.js";

describe.each(dialects())("security headers, demo visitor and usernames on %s", (dialect) => {
  let t: TestApp;
  let demo: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    demo = await createTestApp(dialect, { CHAINLAUNCH_DEMO: "true" });
  });
  afterAll(async () => {
    await t.close();
    await demo.close();
  });

  it("sends frame-ancestors, nosniff and a referrer policy on API answers, errors and unknown routes", async () => {
    const answers = [
      await t.app.inject({ method: "GET", url: "/api/v1/organizations", headers: t.admin }),
      await t.app.inject({ method: "GET", url: "/api/v1/organizations" }),
      await t.app.inject({ method: "GET", url: "/api/v1/nope" }),
      await t.app.inject({ method: "GET", url: "/healthz" }),
      // A 400 from the schemas, a compressed answer (over the inline limit: @fastify/compress's
      // streams) and a small compressed one (compressed inline).
      await t.app.inject({ method: "POST", url: "/api/v1/organizations", headers: t.admin, payload: { nope: 1 } }),
      await t.app.inject({
        method: "GET",
        url: "/api/v1/openapi.json",
        headers: { ...t.admin, "accept-encoding": "br" },
      }),
      await t.app.inject({
        method: "GET",
        url: "/api/v1/roles",
        headers: { ...t.admin, "accept-encoding": "gzip" },
      }),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([200, 401, 404, 200, 400, 200, 200]);
    expect(answers[5]!.headers["content-encoding"]).toBe("br");
    expect(answers[6]!.headers["content-encoding"]).toBe("gzip");
    for (const res of answers) {
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(res.headers[name], name).toBe(value);
    }
    expect(SECURITY_HEADERS["content-security-policy"]).toBe("frame-ancestors 'none'");
  });

  it("does not show the demo visitor the user list or the audit log", async () => {
    expect((await demo.app.inject({ method: "GET", url: "/api/v1/users" })).statusCode).toBe(403);
    expect((await demo.app.inject({ method: "GET", url: "/api/v1/users/1" })).statusCode).toBe(403);
    expect((await demo.app.inject({ method: "GET", url: "/api/v1/audit/logs" })).statusCode).toBe(403);
    // Still a visitor that can look around, and a signed-in admin still reads both.
    expect((await demo.app.inject({ method: "GET", url: "/api/v1/organizations" })).statusCode).toBe(200);
    expect((await demo.app.inject({ method: "GET", url: "/api/v1/users", headers: demo.admin })).statusCode).toBe(200);
  });

  it("treats usernames as unique regardless of case, and signs in with any case", async () => {
    const dup = await t.app.inject({
      method: "POST",
      url: "/api/v1/users",
      headers: t.admin,
      payload: { username: "ADMIN", password: "password-123", role: "viewer" },
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toMatch(/^username: /);
    const login = await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { username: "Admin", password: ADMIN_PASSWORD },
    });
    expect(login.statusCode).toBe(200);
  });
});
