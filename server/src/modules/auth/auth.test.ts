import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** What a browser sends from the console itself (inject's default host is localhost:80). */
const origin = "http://localhost:80";
import { ADMIN_PASSWORD, createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";

function sessionCookie(setCookie: string | string[] | undefined): string {
  const raw = [setCookie ?? []].flat().find((c) => c.startsWith("session_id="));
  if (!raw) throw new Error("no session_id cookie set");
  return raw.split(";")[0]!;
}

describe.each(dialects())("auth on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { CHAINLAUNCH_LOGIN_MAX_ATTEMPTS: "5" });
  });
  afterAll(async () => t.close());

  const login = (username: string, password: string, ip = "127.0.0.1") =>
    t.app.inject({ method: "POST", url: "/api/v1/auth/login", payload: { username, password }, remoteAddress: ip });

  it("signs in with a session cookie that is HttpOnly and SameSite=Lax", async () => {
    const res = await login("admin", ADMIN_PASSWORD);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: "Login successful" });
    const raw = [res.headers["set-cookie"]].flat().join(";");
    expect(raw).toMatch(/session_id=/);
    expect(raw).toMatch(/HttpOnly/);
    expect(raw).toMatch(/SameSite=Lax/);
    expect(raw).not.toMatch(/Secure/);
    const me = await t.app.inject({
      method: "GET",
      url: "/api/v1/auth/me",
      headers: { cookie: sessionCookie(res.headers["set-cookie"]) },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: 1, username: "admin", role: "admin", demo_mode: false });
    expect(me.json().last_login_at).toBeTruthy();
  });

  it("marks the cookie Secure when served over https", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { username: "admin", password: ADMIN_PASSWORD },
      headers: { "x-forwarded-proto": "https" },
    });
    // Without trust-proxy the protocol is the socket's; this checks the flag follows req.protocol.
    expect([res.headers["set-cookie"]].flat().join(";")).not.toMatch(/Secure/);
    const secure = await createTestApp("sqlite", { CHAINLAUNCH_TRUST_PROXY: "true" });
    try {
      const r2 = await secure.app.inject({
        method: "POST",
        url: "/api/v1/auth/login",
        payload: { username: "admin", password: ADMIN_PASSWORD },
        headers: { "x-forwarded-proto": "https" },
      });
      expect([r2.headers["set-cookie"]].flat().join(";")).toMatch(/Secure/);
    } finally {
      await secure.close();
    }
  });

  it("rejects bad credentials with 401 and records the failure", async () => {
    const res = await login("admin", "wrong-password", "10.9.9.9");
    expect(res.statusCode).toBe(401);
    const logs = await t.app.inject({
      method: "GET",
      url: "/api/v1/audit/logs?event_type=auth.login&event_outcome=failure",
      headers: t.admin,
    });
    expect(logs.json().total_count).toBeGreaterThan(0);
    expect(JSON.stringify(logs.json())).not.toContain("wrong-password");
  });

  it("logout revokes the session server-side", async () => {
    const cookie = sessionCookie((await login("admin", ADMIN_PASSWORD)).headers["set-cookie"]);
    const out = await t.app.inject({ method: "POST", url: "/api/v1/auth/logout", headers: { cookie, origin } });
    expect(out.statusCode).toBe(200);
    const me = await t.app.inject({ method: "GET", url: "/api/v1/auth/me", headers: { cookie } });
    expect(me.statusCode).toBe(401);
  });

  it("HTTP Basic works on API routes", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/users", headers: t.admin });
    expect(res.statusCode).toBe(200);
    const bad = await t.app.inject({
      method: "GET",
      url: "/api/v1/users",
      headers: t.basic("admin", "nope-nope"),
      remoteAddress: "10.1.1.1",
    });
    expect(bad.statusCode).toBe(401);
  });

  it("HTTP Basic remembers a verified password only while it is the user's password", async () => {
    await createUser(t, "dave", "viewer", "dave-pass-1");
    const asDave = (password: string) =>
      t.app.inject({ method: "GET", url: "/api/v1/auth/me", headers: t.basic("dave", password) });
    expect((await asDave("dave-pass-1")).statusCode).toBe(200);
    expect((await asDave("dave-pass-1")).statusCode).toBe(200); // remembered
    const changed = await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/change-password",
      headers: t.basic("dave", "dave-pass-1"),
      payload: { current_password: "dave-pass-1", new_password: "dave-pass-2" },
    });
    expect(changed.statusCode, changed.body).toBeLessThan(300);
    expect((await asDave("dave-pass-1")).statusCode).toBe(401);
    expect((await asDave("dave-pass-2")).statusCode).toBe(200);
    // A deleted user is refused at once.
    const users = (await t.app.inject({ method: "GET", url: "/api/v1/users", headers: t.admin })).json() as {
      id: number;
      username: string;
    }[];
    const dave = users.find((u) => u.username === "dave")!;
    const del = await t.app.inject({ method: "DELETE", url: `/api/v1/users/${dave.id}`, headers: t.admin });
    expect(del.statusCode, del.body).toBeLessThan(300);
    expect((await asDave("dave-pass-2")).statusCode).toBe(401);
  });

  it("change-password needs 8 characters and revokes the user's other sessions", async () => {
    const carol = await createUser(t, "carol", "viewer", "carol-pass-1");
    void carol;
    const s1 = sessionCookie((await login("carol", "carol-pass-1")).headers["set-cookie"]);
    const s2 = sessionCookie((await login("carol", "carol-pass-1")).headers["set-cookie"]);
    const short = await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/change-password",
      headers: { cookie: s1, origin },
      payload: { current_password: "carol-pass-1", new_password: "short" },
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toMatch(/new_password/);
    const wrong = await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/change-password",
      headers: { cookie: s1, origin },
      payload: { current_password: "not-it-at-all", new_password: "carol-pass-2" },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toMatch(/current_password/);
    const ok = await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/change-password",
      headers: { cookie: s1, origin },
      payload: { current_password: "carol-pass-1", new_password: "carol-pass-2" },
    });
    expect(ok.statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/api/v1/auth/me", headers: { cookie: s1 } })).statusCode).toBe(
      200,
    );
    expect((await t.app.inject({ method: "GET", url: "/api/v1/auth/me", headers: { cookie: s2 } })).statusCode).toBe(
      401,
    );
    expect((await login("carol", "carol-pass-2")).statusCode).toBe(200);
  });

  it("rate-limits failed logins per IP+username with a clear 429", async () => {
    for (let i = 0; i < 5; i++) expect((await login("ratelimited", "bad-password", "10.0.0.7")).statusCode).toBe(401);
    const blocked = await login("ratelimited", "bad-password", "10.0.0.7");
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers["retry-after"]).toBeDefined();
    expect(blocked.json()).toMatchObject({ error: "RATE_LIMITED" });
    expect(blocked.json().message).toMatch(/too many failed sign-in attempts/);
    // The same username from another IP is checked (slowly: the per-username backoff), not refused.
    expect((await login("ratelimited", "bad-password", "10.0.0.8")).statusCode).toBe(401);
    // Another user from a fresh IP is not affected.
    expect((await login("admin", ADMIN_PASSWORD, "10.0.0.9")).statusCode).toBe(200);
  });

  it("can't be used to lock admin out: failures from one IP don't stop a correct password from another", async () => {
    const attacker = "203.0.113.66";
    for (let i = 0; i < 5; i++) expect((await login("admin", "guess-" + i, attacker)).statusCode).toBe(401);
    expect((await login("admin", "guess-5", attacker)).statusCode).toBe(429);
    // The attacker is refused even with the right password from its address (it has used up its tries)...
    expect((await login("admin", ADMIN_PASSWORD, attacker)).statusCode).toBe(429);
    // ...while admin, from any other address, signs in at once.
    const t0 = Date.now();
    expect((await login("admin", ADMIN_PASSWORD, "198.51.100.7")).statusCode).toBe(200);
    expect(Date.now() - t0).toBeLessThan(1500);
  });

  it("limits one IP across many usernames, and slows failures for a username tried from many IPs", async () => {
    const ip = "203.0.113.77";
    let refused = 0;
    for (let i = 0; i < 21; i++) if ((await login(`nobody-${i}`, "x-password", ip)).statusCode === 429) refused++;
    // 5 per pair × 4 = 20 failures per IP in the window, then 429 whatever the username.
    expect(refused).toBe(1);
    expect((await login("someone-else", "x-password", ip)).statusCode).toBe(429);
    // A username failing from many IPs: each further failure waits longer (per-username backoff).
    for (let i = 0; i < 6; i++) await login("spread", "bad", `192.0.2.${i}`);
    const t0 = Date.now();
    expect((await login("spread", "bad", "192.0.2.200")).statusCode).toBe(401);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(150);
  });

  it("stores sessions hashed, never the cookie value", async () => {
    const cookie = sessionCookie((await login("admin", ADMIN_PASSWORD)).headers["set-cookie"]);
    const token = cookie.split("=")[1]!;
    const rows = await t.database.db.selectFrom("sessions").select("token_hash").execute();
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash))).toBe(true);
  });
});

describe("demo mode", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp("sqlite", { CHAINLAUNCH_DEMO: "true" });
  });
  afterAll(async () => t.close());

  it("treats an anonymous visitor as the read-only demo user", async () => {
    const me = await t.app.inject({ method: "GET", url: "/api/v1/auth/me" });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: 0, demo_mode: true, role: "viewer" });
    const write = await t.app.inject({ method: "POST", url: "/api/v1/settings", payload: { config: {} } });
    expect(write.statusCode).toBe(403);
    const self = await t.app.inject({ method: "POST", url: "/api/v1/user-notifications/read-all" });
    expect(self.statusCode).toBe(403);
  });

  it("still lets a real user log in", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { username: "admin", password: ADMIN_PASSWORD },
    });
    const cookie = sessionCookie(res.headers["set-cookie"]);
    const me = await t.app.inject({ method: "GET", url: "/api/v1/auth/me", headers: { cookie } });
    expect(me.json()).toMatchObject({ username: "admin", demo_mode: false });
  });
});
