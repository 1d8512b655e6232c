import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";
import { redactDetails } from "./audit.service.js";

describe("redactDetails", () => {
  it("drops secret-looking fields at any depth and keeps the rest", () => {
    expect(
      redactDetails({
        username: "a",
        password: "p",
        nested: { api_key: "k", token: "t", role: "viewer" },
        list: [{ secret: 1 }],
      }),
    ).toEqual({
      username: "a",
      password: "[redacted]",
      nested: { api_key: "[redacted]", token: "[redacted]", role: "viewer" },
      list: [{ secret: "[redacted]" }],
    });
  });
});

describe.each(dialects())("audit log on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    await createUser(t, "audited", "viewer", "audited-secret-1");
    await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { username: "audited", password: "wrong-one-here" },
    });
    await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { username: "audited", password: "audited-secret-1" },
    });
    await t.app.inject({
      method: "POST",
      url: "/api/v1/settings",
      headers: t.basic("audited", "audited-secret-1"),
      payload: { config: {} },
    });
  });
  afterAll(async () => t.close());

  const list = (qs: string) => t.app.inject({ method: "GET", url: `/api/v1/audit/logs?${qs}`, headers: t.admin });

  it("records mutations, login success and failure, and permission denials, newest first", async () => {
    const res = await list("page_size=50");
    expect(res.statusCode).toBe(200);
    const types = res
      .json()
      .items.map((e: { eventType: string; eventOutcome: string }) => `${e.eventType}:${e.eventOutcome}`);
    expect(types).toEqual(
      expect.arrayContaining([
        "user.create:SUCCESS",
        "auth.login:FAILURE",
        "auth.login:SUCCESS",
        "permission.denied:FAILURE",
      ]),
    );
    const ids = res.json().items.map((e: { id: number }) => e.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const first = res.json().items[0];
    expect(first).toMatchObject({ eventSource: "api", sourceIp: "127.0.0.1" });
    expect(first.requestId).toBeTruthy();
  });

  it("never stores secrets", async () => {
    const raw = JSON.stringify(await t.database.db.selectFrom("audit_logs").selectAll().execute());
    expect(raw).not.toContain("audited-secret-1");
    expect(raw).not.toContain("wrong-one-here");
  });

  it("filters by type, outcome, user and time, and pages", async () => {
    const failures = (await list("event_type=auth.login&event_outcome=failure")).json();
    expect(failures.total_count).toBe(1);
    expect(failures.items[0].details.username).toBeUndefined();
    const userId = (await t.app.inject({ method: "GET", url: "/api/v1/users", headers: t.admin }))
      .json()
      .find((u: { username: string }) => u.username === "audited").id;
    const byUser = (await list(`user_id=${userId}`)).json();
    expect(byUser.items.every((e: { userIdentity: number }) => e.userIdentity === userId)).toBe(true);
    expect(byUser.total_count).toBeGreaterThanOrEqual(2);
    const future = (await list(`start=${encodeURIComponent(new Date(Date.now() + 3600_000).toISOString())}`)).json();
    expect(future.total_count).toBe(0);
    const page1 = (await list("page=1&page_size=2")).json();
    const page2 = (await list("page=2&page_size=2")).json();
    expect(page1.items).toHaveLength(2);
    expect(page1.items[1].id).toBeGreaterThan(page2.items[0].id);
    const one = await t.app.inject({ method: "GET", url: `/api/v1/audit/logs/${page1.items[0].id}`, headers: t.admin });
    expect(one.json()).toEqual(page1.items[0]);
    expect((await t.app.inject({ method: "GET", url: "/api/v1/audit/logs/999999", headers: t.admin })).statusCode).toBe(
      404,
    );
    expect((await list("start=yesterday")).statusCode).toBe(400);
  });
});
