import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";

describe.each(dialects())("users on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  const post = (payload: unknown, headers = t.admin) =>
    t.app.inject({ method: "POST", url: "/api/v1/users", headers, payload: payload as object });

  it("creates users with roles compared case-insensitively", async () => {
    const res = await post({ username: "mgr", password: "password-1", role: "MANAGER" });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ username: "mgr", role: "manager", demo_mode: false });
    expect((await post({ username: "viewer1", password: "password-1", role: "Viewer" })).json().role).toBe("viewer");
  });

  it("refuses duplicates with 409 naming the field", async () => {
    const res = await post({ username: "mgr", password: "password-1", role: "viewer" });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/^username: /);
  });

  it.each([
    ["an unknown field", { username: "user1", password: "password-1", role: "viewer", admin: true }, "body.admin"],
    ["an oversize string", { username: "u".repeat(65), password: "password-1", role: "viewer" }, "body.username"],
    ["a wrong type", { username: "user2", password: 12345678, role: "viewer" }, "body.password"],
    ["an unknown role", { username: "user3", password: "password-1", role: "root" }, "body.role"],
    ["a short password", { username: "user4", password: "short", role: "viewer" }, "body.password"],
  ])("rejects %s with a 400 that names the field", async (_label, payload, field) => {
    // Strict: an unknown field is refused rather than dropped with a warning.
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/users?fieldValidation=Strict",
      headers: t.admin,
      payload: payload as object,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: "INVALID_INPUT" });
    expect(res.json().message.startsWith(field)).toBe(true);
    expect(res.json().requestId).toBeTruthy();
  });

  it("rejects malformed JSON with a 400 and leaves nothing behind", async () => {
    const before = (await t.app.inject({ method: "GET", url: "/api/v1/users", headers: t.admin })).json().length;
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/users",
      headers: { ...t.admin, "content-type": "application/json" },
      payload: '{"username": "half", "password": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^body/);
    const after = (await t.app.inject({ method: "GET", url: "/api/v1/users", headers: t.admin })).json().length;
    expect(after).toBe(before);
  });

  it("updates name and role", async () => {
    const id = (await post({ username: "temp", password: "password-1", role: "viewer" })).json().id;
    const res = await t.app.inject({
      method: "PUT",
      url: `/api/v1/users/${id}`,
      headers: t.admin,
      payload: { username: "temp2", role: "ADMIN" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ username: "temp2", role: "admin" });
    const del = await t.app.inject({ method: "DELETE", url: `/api/v1/users/${id}`, headers: t.admin });
    expect(del.statusCode).toBe(204);
    expect((await t.app.inject({ method: "GET", url: `/api/v1/users/${id}`, headers: t.admin })).statusCode).toBe(404);
  });

  it("lets only admins change users; viewers read them; managers do not", async () => {
    const viewer = await createUser(t, "reader", "viewer");
    const manager = await createUser(t, "operator", "manager");
    expect((await t.app.inject({ method: "GET", url: "/api/v1/users", headers: viewer })).statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/api/v1/users", headers: manager })).statusCode).toBe(403);
    expect((await post({ username: "x1", password: "password-1", role: "viewer" }, manager)).statusCode).toBe(403);
  });
  it("never deletes yourself or the last admin, and never demotes the last admin", async () => {
    const self = await t.app.inject({ method: "DELETE", url: "/api/v1/users/1", headers: t.admin });
    expect(self.statusCode).toBe(409);
    expect(self.json().message).toMatch(/your own account/);
    const demote = await t.app.inject({
      method: "PUT",
      url: "/api/v1/users/1",
      headers: t.admin,
      payload: { role: "viewer" },
    });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().message).toMatch(/last admin/);
    const other = await createUser(t, "admin2", "admin");
    const lastAdmin = await t.app.inject({ method: "DELETE", url: "/api/v1/users/1", headers: other });
    expect(lastAdmin.statusCode).toBe(204);
    const me = (await t.app.inject({ method: "GET", url: "/api/v1/auth/me", headers: other })).json();
    const selfAgain = await t.app.inject({ method: "DELETE", url: `/api/v1/users/${me.id}`, headers: other });
    expect(selfAgain.statusCode).toBe(409);
  });
});
