import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PASSWORD, createTestApp, dialects, type TestApp } from "../test-support/test-app.js";

/** Cookie-authenticated changes must come from the console's own origin (issue 10, item 16). */
describe.each(dialects())("cross-site request forgery on %s", (dialect) => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { username: "admin", password: ADMIN_PASSWORD },
    });
    cookie = /session_id=[^;]+/.exec([res.headers["set-cookie"]].flat().join(";"))![0];
  });
  afterAll(async () => t.close());

  const usernames = async (): Promise<string[]> =>
    (
      (await t.app.inject({ method: "GET", url: "/api/v1/users", headers: t.admin })).json() as { username: string }[]
    ).map((u) => u.username);

  it("a cross-site text/plain form post with the session cookie changes nothing", async () => {
    // What <form enctype="text/plain" action="http://console/api/v1/users" method="post"> on another site sends.
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/users",
      headers: { cookie, origin: "https://evil.example", "sec-fetch-site": "cross-site", "content-type": "text/plain" },
      payload: '{"username":"mallory","password":"password-123","role":"admin","x":"=1"}',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/cross-site request refused/);
    expect(await usernames()).not.toContain("mallory");
  });

  it("refuses a foreign Origin, a cross-site or same-site Sec-Fetch-Site, and a cookie change with neither", async () => {
    const stop = (headers: Record<string, string>) =>
      t.app.inject({ method: "POST", url: "/api/v1/nodes/1/stop", headers: { cookie, ...headers } });
    expect((await stop({ origin: "https://evil.example" })).statusCode).toBe(403);
    expect((await stop({ origin: "http://localhost:8100.evil.example" })).statusCode).toBe(403);
    expect((await stop({ "sec-fetch-site": "cross-site" })).statusCode).toBe(403);
    expect((await stop({ "sec-fetch-site": "same-site", origin: "http://localhost:80" })).statusCode).toBe(403);
    expect((await stop({})).statusCode).toBe(403);
    // The console itself: through to the handler (no node 1 here, so 404).
    expect((await stop({ origin: "http://localhost:80" })).statusCode).toBe(404);
    expect((await stop({ "sec-fetch-site": "same-origin" })).statusCode).toBe(404);
  });

  it("lets the console's own changes, cookie reads from anywhere, and Basic or API-key changes through", async () => {
    const own = await t.app.inject({
      method: "POST",
      url: "/api/v1/users",
      headers: { cookie, origin: "http://localhost:80", "sec-fetch-site": "same-origin" },
      payload: { username: "alice", password: "password-123", role: "viewer" },
    });
    expect(own.statusCode).toBe(201);
    const read = await t.app.inject({
      method: "GET",
      url: "/api/v1/users",
      headers: { cookie, origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    });
    expect(read.statusCode).toBe(200);
    const basic = await t.app.inject({
      method: "POST",
      url: "/api/v1/users",
      headers: { ...t.admin, origin: "https://elsewhere.example" },
      payload: { username: "bob", password: "password-123", role: "viewer" },
    });
    expect(basic.statusCode).toBe(201);
  });

  it("accepts origins listed in CHAINLAUNCH_ALLOWED_ORIGINS (a proxy that rewrites Host)", async () => {
    const proxied = await createTestApp(dialect, { CHAINLAUNCH_ALLOWED_ORIGINS: "https://console.example.com" });
    try {
      const login = await proxied.app.inject({
        method: "POST",
        url: "/api/v1/auth/login",
        payload: { username: "admin", password: ADMIN_PASSWORD },
      });
      const c = /session_id=[^;]+/.exec([login.headers["set-cookie"]].flat().join(";"))![0];
      const create = (origin: string) =>
        proxied.app.inject({
          method: "POST",
          url: "/api/v1/users",
          headers: { cookie: c, origin, host: "127.0.0.1:8100" },
          payload: { username: `via-${origin.length}`, password: "password-123", role: "viewer" },
        });
      expect((await create("https://console.example.com")).statusCode).toBe(201);
      expect((await create("https://other.example.com")).statusCode).toBe(403);
    } finally {
      await proxied.close();
    }
  });
});
