import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";

describe.each(dialects())("API keys on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  const create = (payload: object, headers = t.admin) =>
    t.app.inject({ method: "POST", url: "/api/v1/api-keys", headers, payload });

  it("shows the secret once, stores it hashed, and accepts it as Bearer and X-API-Key", async () => {
    const res = await create({ name: "ci", description: "pipeline" });
    expect(res.statusCode).toBe(201);
    const { api_key, key } = res.json();
    expect(key).toMatch(/^cl_/);
    expect(api_key).toMatchObject({ name: "ci", role: "admin", is_active: true, expires_at: null });
    expect(api_key.key_prefix).toBe(key.slice(0, 10));
    expect(JSON.stringify(api_key)).not.toContain(key);

    const get = await t.app.inject({ method: "GET", url: `/api/v1/api-keys/${api_key.id}`, headers: t.admin });
    expect(JSON.stringify(get.json())).not.toContain(key);
    const rows = await t.database.db.selectFrom("api_keys").select(["key_hash", "key_prefix"]).execute();
    expect(rows.some((r) => r.key_hash === key)).toBe(false);
    if (dialect === "sqlite") expect(readFileSync(join(t.config.dataDir, "chainlaunch.db")).includes(key)).toBe(false);

    const bearer = await t.app.inject({
      method: "GET",
      url: "/api/v1/users",
      headers: { authorization: `Bearer ${key}` },
    });
    expect(bearer.statusCode).toBe(200);
    const header = await t.app.inject({ method: "GET", url: "/api/v1/auth/me", headers: { "x-api-key": key } });
    expect(header.json()).toMatchObject({ username: "admin" });

    const logs = await t.app.inject({ method: "GET", url: `/api/v1/api-keys/${api_key.id}/logs`, headers: t.admin });
    expect(logs.statusCode).toBe(200);
    const entries = logs.json();
    expect(entries[0]).toMatchObject({ action: "GET /api/v1/auth/me", ip_address: "127.0.0.1" });
    expect(JSON.parse(entries[0].metadata)).toEqual({ method: "GET", path: "/api/v1/auth/me", status: 200 });
    expect(entries[1].action).toBe("GET /api/v1/users");
  });

  it("acts with a narrower role chosen at creation, never a wider one", async () => {
    const narrow = (await create({ name: "read-only", role: "viewer" })).json().key;
    const write = await t.app.inject({
      method: "POST",
      url: "/api/v1/users",
      headers: { authorization: `Bearer ${narrow}` },
      payload: { username: "nope", password: "password-1", role: "viewer" },
    });
    expect(write.statusCode).toBe(403);
    const manager = await createUser(t, "keymgr", "manager");
    const wider = await create({ name: "escalate", role: "admin" }, manager);
    expect(wider.statusCode).toBe(400);
    expect(wider.json().message).toMatch(/^role: /);
    // A manager's viewer-role key still cannot read users: the owner's role bounds it.
    const mk = (await create({ name: "mv", role: "viewer" }, manager)).json().key;
    expect((await t.app.inject({ method: "GET", url: "/api/v1/users", headers: { "x-api-key": mk } })).statusCode).toBe(
      403,
    );
  });

  it("revocation is immediate and unknown keys are refused", async () => {
    const { api_key, key } = (await create({ name: "short-lived", expires_in: "30d" })).json();
    expect(Date.parse(api_key.expires_at) - Date.now()).toBeGreaterThan(29 * 86_400_000);
    expect(
      (await t.app.inject({ method: "GET", url: "/api/v1/auth/me", headers: { "x-api-key": key } })).statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ method: "DELETE", url: `/api/v1/api-keys/${api_key.id}`, headers: t.admin })).statusCode,
    ).toBe(204);
    const after = await t.app.inject({ method: "GET", url: "/api/v1/auth/me", headers: { "x-api-key": key } });
    expect(after.statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: "GET", url: `/api/v1/api-keys/${api_key.id}`, headers: t.admin })).json().is_active,
    ).toBe(false);
    expect(
      (await t.app.inject({ method: "GET", url: "/api/v1/auth/me", headers: { authorization: "Bearer cl_bogus" } }))
        .statusCode,
    ).toBe(401);
  });

  it("expired keys are refused", async () => {
    const { api_key, key } = (await create({ name: "expiring", expires_in: "1m" })).json();
    await t.database.db
      .updateTable("api_keys")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", api_key.id)
      .execute();
    expect(
      (await t.app.inject({ method: "GET", url: "/api/v1/auth/me", headers: { "x-api-key": key } })).statusCode,
    ).toBe(401);
  });

  it("validates expires_in and stores injection-looking names literally", async () => {
    const bad = await create({ name: "x", expires_in: "forever" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^body\.expires_in/);
    const name = "'); DROP TABLE users; -- <script>alert(1)</script>";
    const ok = await create({ name });
    expect(ok.statusCode).toBe(201);
    const list = await t.app.inject({ method: "GET", url: "/api/v1/api-keys", headers: t.admin });
    expect(list.json().some((k: { name: string }) => k.name === name)).toBe(true);
    expect((await t.app.inject({ method: "GET", url: "/api/v1/users", headers: t.admin })).statusCode).toBe(200);
  });

  it("hides other users' keys", async () => {
    const viewer = await createUser(t, "peeker", "viewer");
    const theirs = await t.app.inject({ method: "GET", url: "/api/v1/api-keys/1", headers: viewer });
    expect(theirs.statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url: "/api/v1/api-keys", headers: viewer })).json()).toEqual([]);
  });
});
