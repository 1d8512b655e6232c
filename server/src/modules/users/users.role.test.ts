import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";

/** PUT /users/{id}/role, upstream's updateUserRole: admin only, audited, never demoting the last admin. */
describe.each(dialects())("changing a user's role on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  const setRole = (id: number | string, payload: unknown, headers: Record<string, string> = t.admin, query = "") =>
    t.app.inject({
      method: "PUT",
      url: `/api/v1/users/${id}/role${query}`,
      headers: { ...headers, "content-type": "application/json" },
      payload: typeof payload === "string" ? payload : JSON.stringify(payload),
    });
  const idOf = async (username: string): Promise<number> => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/users", headers: t.admin });
    return (res.json() as { id: number; username: string }[]).find((u) => u.username === username)!.id;
  };
  const roleOf = async (id: number, headers: Record<string, string> = t.admin): Promise<string> =>
    (await t.app.inject({ method: "GET", url: `/api/v1/users/${id}`, headers })).json().role;

  it("changes the role (any letter case), answers the user and records user.update", async () => {
    await createUser(t, "promoted", "viewer");
    const id = await idOf("promoted");
    const res = await setRole(id, { role: "MANAGER" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id, username: "promoted", role: "manager", demo_mode: false });
    expect(Object.keys(res.json()).sort()).toEqual([
      "created_at",
      "demo_mode",
      "id",
      "last_login_at",
      "role",
      "username",
    ]);
    expect(await roleOf(id)).toBe("manager");

    const audit = await t.app.inject({
      method: "GET",
      url: "/api/v1/audit/logs?event_type=user.update&page_size=50",
      headers: t.admin,
    });
    const entry = (
      audit.json().items as { affectedResource: string; eventOutcome: string; details: { role?: string } }[]
    ).find((e) => e.affectedResource === `user:${id}`);
    expect(entry).toMatchObject({ eventOutcome: "SUCCESS", details: { role: "manager" } });
  });

  it("ends the user's sessions: the new role applies at once", async () => {
    await createUser(t, "sessioned", "admin");
    const id = await idOf("sessioned");
    const login = await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { username: "sessioned", password: "password-123" },
    });
    const raw = [login.headers["set-cookie"] ?? []].flat().find((c) => c.startsWith("session_id="));
    const cookie = raw!.split(";")[0]!;
    const asSession = { cookie };
    expect((await t.app.inject({ method: "GET", url: "/api/v1/auth/me", headers: asSession })).statusCode).toBe(200);
    expect((await setRole(id, { role: "viewer" })).statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/api/v1/auth/me", headers: asSession })).statusCode).toBe(401);
  });

  it("drops a username sent along (upstream's request type has one) with a warning, and refuses it in Strict mode", async () => {
    await createUser(t, "renamer", "viewer");
    const id = await idOf("renamer");
    const warned = await setRole(id, { role: "manager", username: "other-name" });
    expect(warned.statusCode, warned.body).toBe(200);
    expect(warned.json()).toMatchObject({ username: "renamer", role: "manager" });
    expect(String(warned.headers.warning)).toContain("body.username");
    const strict = await setRole(id, { role: "viewer", username: "other-name" }, t.admin, "?fieldValidation=Strict");
    expect(strict.statusCode).toBe(400);
    expect(strict.json().message).toMatch(/^body\.username/);
    expect(await roleOf(id)).toBe("manager");
  });

  it.each([
    ["no role", {}, /^body\.role/],
    ["an unknown role", { role: "root" }, /^body\.role: .*admin, manager, viewer/],
    ["a role of the wrong type", { role: 3 }, /^body\.role/],
    ["an oversize role", { role: "a".repeat(17) }, /^body\.role/],
    ["an empty body", "", /^body/],
  ])("refuses %s with a 400 naming the field", async (_label, payload, message) => {
    const id = await idOf("promoted");
    const res = await setRole(id, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: "INVALID_INPUT" });
    expect(res.json().message).toMatch(message);
    expect(await roleOf(id)).toBe("manager");
  });

  it("refuses a malformed id with a 400 naming it, and an unknown user with a 404", async () => {
    const bad = await setRole("abc", { role: "viewer" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^params\.id/);
    expect((await setRole(2 ** 31, { role: "viewer" })).json().message).toMatch(/^params\.id/);
    expect((await setRole(999999, { role: "viewer" })).statusCode).toBe(404);
  });

  it("lets only admins change roles: viewers and managers get 403, anonymous callers 401", async () => {
    const viewer = await createUser(t, "role-viewer", "viewer");
    const manager = await createUser(t, "role-manager", "manager");
    const id = await idOf("promoted");
    for (const caller of [viewer, manager]) {
      const res = await setRole(id, { role: "admin" }, caller);
      expect(res.statusCode).toBe(403);
    }
    expect((await setRole(id, { role: "admin" }, {})).statusCode).toBe(401);
    expect(await roleOf(id)).toBe("manager");
  });

  it("never demotes the last admin (409 naming role); with a second admin it may", async () => {
    // Leave exactly one admin: the built-in one.
    const users = (await t.app.inject({ method: "GET", url: "/api/v1/users", headers: t.admin })).json() as {
      id: number;
      role: string;
    }[];
    const me = (await t.app.inject({ method: "GET", url: "/api/v1/auth/me", headers: t.admin })).json().id as number;
    for (const u of users.filter((x) => x.role === "admin" && x.id !== me)) {
      expect((await setRole(u.id, { role: "viewer" })).statusCode).toBe(200);
    }
    const last = await setRole(me, { role: "viewer" });
    expect(last.statusCode).toBe(409);
    expect(last.json()).toMatchObject({ error: "CONFLICT" });
    expect(last.json().message).toBe("role: the last admin cannot be demoted");
    expect(await roleOf(me)).toBe("admin");
    // Keeping the role is no demotion.
    expect((await setRole(me, { role: "admin" })).statusCode).toBe(200);

    const second = await createUser(t, "second-admin", "admin");
    const secondId = await idOf("second-admin");
    const demoted = await setRole(me, { role: "manager" }, second);
    expect(demoted.statusCode, demoted.body).toBe(200);
    expect(await roleOf(me, second)).toBe("manager");
    const back = await setRole(me, { role: "admin" }, second);
    expect(back.statusCode).toBe(200);
    expect(await roleOf(me)).toBe("admin");
    expect(await roleOf(secondId)).toBe("admin");
  });
});
