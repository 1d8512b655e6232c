import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, dialects, type TestApp } from "../test-support/test-app.js";
import { createAuditRepo, type AuditRow } from "../modules/audit/audit.repo.js";
import { createUsersRepo } from "../modules/users/users.repo.js";
import { reusableQuery } from "./reusable-query.js";

describe.each(dialects())("reusable queries on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  it("runs the SQL a built query would, with each call's values", async () => {
    const { db } = t.database;
    const q = reusableQuery<[string, number], { username: string }>(2, (name, id) =>
      db
        .selectFrom("users")
        .select("username")
        .where(sql`lower(username)`, "=", name)
        .where("id", ">=", id),
    );
    const built = db
      .selectFrom("users")
      .select("username")
      .where(sql`lower(username)`, "=", "admin")
      .where("id", ">=", 1);
    expect(q.with("admin", 1).sql).toBe(built.compile().sql);
    expect((await db.executeQuery(q.with("admin", 1))).rows).toEqual(await built.execute());
    // The same compiled query, other values: nothing of the first call is left in it.
    expect((await db.executeQuery(q.with("nobody", 1))).rows).toEqual([]);
    expect((await db.executeQuery(q.with("admin", 1_000_000))).rows).toEqual([]);
  });

  it("refuses a query that does not pass each stand-in as one parameter", () => {
    const { db } = t.database;
    const dropped = reusableQuery<[string], unknown>(1, () => db.selectFrom("users").selectAll());
    expect(() => dropped.with("x")).toThrow(/placeholders must be one parameter/);
    const twice = reusableQuery<[string], unknown>(1, (a) =>
      db.selectFrom("users").selectAll().where("username", "=", a).where("role", "=", a),
    );
    expect(() => twice.with("x")).toThrow(/placeholders must be one parameter/);
  });

  it("finds users by username in any case, as before", async () => {
    const users = createUsersRepo(t.database.db, dialect);
    const admin = await users.byUsername("ADMIN");
    expect(admin?.username).toBe("admin");
    expect(await users.byId(admin!.id)).toEqual(admin);
    expect(await users.byUsername("nobody")).toBeUndefined();
  });

  it("writes audit rows with every column as given, nulls included, inside a transaction too", async () => {
    const repo = createAuditRepo(t.database.db);
    const row = (n: number, nulls: boolean): Omit<AuditRow, "id"> => ({
      timestamp: `2026-11-28T00:00:0${n}.000Z`,
      event_type: `reusable.test${n}`,
      event_source: "api",
      event_outcome: "SUCCESS",
      severity: "INFO",
      user_id: nulls ? null : 1,
      username: nulls ? null : "admin",
      source_ip: nulls ? null : "127.0.0.1",
      request_id: nulls ? null : `req-${n}`,
      session_id: nulls ? null : "7",
      affected_resource: nulls ? null : "chaincode:1",
      details: nulls ? null : JSON.stringify({ n }),
    });
    await repo.insert(row(1, false));
    await repo.insert(row(2, true));
    await t.database.db.transaction().execute(async (trx) => repo.insert(row(3, false), trx));
    // A transaction rolled back takes its entry with it (the insert ran inside it).
    await t.database.db
      .transaction()
      .execute(async (trx) => {
        await repo.insert(row(4, false), trx);
        throw new Error("roll back");
      })
      .catch(() => undefined);
    const rows = await t.database.db
      .selectFrom("audit_logs")
      .selectAll()
      .where("event_type", "like", "reusable.test%")
      .orderBy("id")
      .execute();
    expect(rows.map(({ id: _id, ...r }) => r)).toEqual([row(1, false), row(2, true), row(3, false)]);
  });
});
