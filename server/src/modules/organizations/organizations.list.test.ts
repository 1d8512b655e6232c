import SQLite from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestApp, dialects, type TestApp } from "../../test-support/test-app.js";

/**
 * Counts the statements the app sends to the database by watching the drivers Kysely calls
 * (better-sqlite3 runs every statement through Statement#all or #run, prepared or cached;
 * pg sends every one through Client#query).
 */
const statementProto = Object.getPrototypeOf(new SQLite(":memory:").prepare("select 1")) as {
  all: (...a: unknown[]) => unknown;
  run: (...a: unknown[]) => unknown;
};

function countQueries(): { count(): number; restore(): void } {
  let n = 0;
  const { all, run } = statementProto;
  const query = pg.Client.prototype.query;
  const p = vi.spyOn(statementProto, "all").mockImplementation(function (this: unknown, ...a: unknown[]) {
    n++;
    return all.apply(this, a);
  });
  const r = vi.spyOn(statementProto, "run").mockImplementation(function (this: unknown, ...a: unknown[]) {
    n++;
    return run.apply(this, a);
  });
  const q = vi.spyOn(pg.Client.prototype, "query").mockImplementation(function (this: pg.Client, ...a: unknown[]) {
    n++;
    return (query as (...x: unknown[]) => unknown).apply(this, a);
  } as typeof query);
  return {
    count: () => n,
    restore: () => {
      p.mockRestore();
      r.mockRestore();
      q.mockRestore();
    },
  };
}

describe.each(dialects())("GET /organizations query count on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  const create = async (i: number): Promise<void> => {
    const r = await t.app.inject({
      method: "POST",
      url: "/api/v1/organizations",
      headers: t.admin,
      payload: { mspId: `Count${i}MSP`, name: `Count ${i}` },
    });
    expect(r.statusCode).toBe(201);
  };
  const queriesForPage = async (): Promise<{ queries: number; items: number }> => {
    const c = countQueries();
    try {
      const r = await t.app.inject({ method: "GET", url: "/api/v1/organizations?limit=1000", headers: t.admin });
      expect(r.statusCode).toBe(200);
      return { queries: c.count(), items: (r.json() as { items: unknown[] }).items.length };
    } finally {
      c.restore();
    }
  };

  it("is constant in the number of organizations on the page", async () => {
    await create(0);
    await queriesForPage(); // warms the Basic credential cache
    const one = await queriesForPage();
    for (let i = 1; i < 6; i++) await create(i);
    const six = await queriesForPage();
    expect([one.items, six.items]).toEqual([1, 6]);
    expect(one.queries).toBeGreaterThan(0);
    // Before batching, each extra organization cost two key queries (+10 here). PostgreSQL may add
    // one statement when the pool's concurrent page/count queries land on a fresh connection.
    expect(six.queries - one.queries).toBeLessThanOrEqual(1);
  });

  it("answers each organization exactly as its create and GET /organizations/{id} do (fields, order, nulls)", async () => {
    const made = await t.app.inject({
      method: "POST",
      url: "/api/v1/organizations",
      headers: t.admin,
      payload: { mspId: "ShapeMSP", name: "Shape", description: "with a description" },
    });
    expect(made.statusCode).toBe(201);
    await create(100);
    const page = await t.app.inject({ method: "GET", url: "/api/v1/organizations?limit=1000", headers: t.admin });
    const body = page.json() as {
      count: number;
      items: { id: number; mspId: string }[];
      limit: number;
      offset: number;
    };
    expect(Object.keys(body)).toEqual(["count", "items", "limit", "offset"]);
    expect(body.items.map((o) => o.id)).toEqual([...body.items.map((o) => o.id)].sort((a, b) => a - b));
    for (const item of body.items) {
      const one = await t.app.inject({ method: "GET", url: `/api/v1/organizations/${item.id}`, headers: t.admin });
      // Byte for byte: the same keys in the same order, the same nulls.
      expect(JSON.stringify(item)).toBe(one.body);
    }
    const shape = body.items.find((o) => o.mspId === "ShapeMSP");
    expect(JSON.stringify(shape)).toBe(made.body);
    const filtered = await t.app.inject({
      method: "GET",
      url: "/api/v1/organizations?mspId=ShapeMSP",
      headers: t.admin,
    });
    expect(filtered.json()).toEqual({ count: 1, items: [shape], limit: 20, offset: 0 });
  });
});
