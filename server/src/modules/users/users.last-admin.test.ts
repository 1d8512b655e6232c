import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";

/**
 * Two admins demoting or deleting each other at the same moment must leave one admin. On PostgreSQL
 * (read committed) both transactions used to count two admins and both went ahead.
 */
describe.each(dialects())("the last-admin rule under concurrency on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  const admins = async (): Promise<number> => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/users", headers: t.admin });
    return (res.json() as { role: string }[]).filter((u) => u.role === "admin").length;
  };
  const idOf = async (username: string): Promise<number> => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/users", headers: t.admin });
    return (res.json() as { id: number; username: string }[]).find((u) => u.username === username)!.id;
  };

  const apiKey = async (auth: { authorization: string }): Promise<{ "x-api-key": string }> => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/api-keys",
      headers: auth,
      payload: { name: "race" },
    });
    expect(res.statusCode, res.body).toBe(201);
    return { "x-api-key": (res.json() as { key: string }).key };
  };

  /** Creates two admins and demotes every other admin, so exactly these two are left. */
  const pair = async (tag: string) => {
    const a = await createUser(t, `${tag}-a`, "admin");
    const b = await createUser(t, `${tag}-b`, "admin");
    const [ida, idb] = [await idOf(`${tag}-a`), await idOf(`${tag}-b`)];
    const list = await t.app.inject({ method: "GET", url: "/api/v1/users", headers: a });
    for (const u of list.json() as { id: number; role: string }[]) {
      if (u.role !== "admin" || u.id === ida || u.id === idb) continue;
      const d = await t.app.inject({
        method: "PUT",
        url: `/api/v1/users/${u.id}`,
        headers: a,
        payload: { role: "viewer" },
      });
      expect(d.statusCode).toBe(200);
    }
    t.admin = a;
    expect(await admins()).toBe(2);
    // Race with API keys: their check is one indexed lookup, so both requests reach the database
    // together (two scrypt checks of Basic passwords would finish tens of ms apart).
    return { a: await apiKey(a), b: await apiKey(b), basicA: a, basicB: b, ida, idb };
  };

  it("two admins demoting each other at once leave exactly one admin (8 rounds)", async () => {
    for (let round = 0; round < 8; round++) {
      const { a, b, basicA, basicB, ida, idb } = await pair(`demote${round}`);
      const [r1, r2] = await Promise.all([
        t.app.inject({ method: "PUT", url: `/api/v1/users/${idb}`, headers: a, payload: { role: "viewer" } }),
        t.app.inject({ method: "PUT", url: `/api/v1/users/${ida}`, headers: b, payload: { role: "viewer" } }),
      ]);
      const codes = [r1.statusCode, r2.statusCode].sort();
      // One wins; the other is refused by the rule (409) or, when the winner's demotion already
      // narrowed the loser to a viewer before its request was authorised, by the role check (403).
      expect(codes[0]).toBe(200);
      expect([403, 409]).toContain(codes[1]);
      t.admin = r1.statusCode === 200 ? basicA : basicB;
      expect(await admins()).toBe(1);
    }
  });

  it("two admins deleting each other at once leave exactly one admin (4 rounds)", async () => {
    for (let round = 0; round < 4; round++) {
      const { a, b, basicA, basicB, ida, idb } = await pair(`delete${round}`);
      const [r1, r2] = await Promise.all([
        t.app.inject({ method: "DELETE", url: `/api/v1/users/${idb}`, headers: a }),
        t.app.inject({ method: "DELETE", url: `/api/v1/users/${ida}`, headers: b }),
      ]);
      const codes = [r1.statusCode, r2.statusCode].sort();
      expect(codes[0]).toBe(204);
      // The loser is refused by the rule (409) or, its account being gone, as a caller (401).
      expect([401, 409]).toContain(codes[1]);
      t.admin = r1.statusCode === 204 ? basicA : basicB;
      expect(await admins()).toBe(1);
    }
  });
});
