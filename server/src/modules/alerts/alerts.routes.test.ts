import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nowIso } from "../../db/db.js";
import { createTestApp, dialects, type TestApp } from "../../test-support/test-app.js";

describe.each(dialects())("GET /alerts on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  it("lists a node outage the node runtime keeps, pending until it is reported, with its real length", async () => {
    const began = new Date(Date.now() - 2 * 60_000).toISOString();
    const insert = async (name: string, alerted: number) =>
      (
        await t.database.db
          .insertInto("nodes")
          .values({
            name,
            slug: name,
            platform: "FABRIC",
            node_type: "FABRIC_PEER",
            status: "ERROR",
            error_message: null,
            endpoint: null,
            organization_id: null,
            network_id: null,
            key_id: null,
            tls_key_id: null,
            config: "{}",
            deployment: "{}",
            down_since: began,
            down_reason: "the process exited (signal SIGKILL)",
            down_alerted: alerted,
            created_at: nowIso(),
            updated_at: nowIso(),
          })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id;
    const told = await insert("al-down-told", 1);
    const due = await insert("al-down-due", 0);
    const res = await t.app.inject({ method: "GET", url: "/api/v1/alerts", headers: t.admin });
    expect(res.statusCode).toBe(200);
    const outages = (res.json() as Array<Record<string, unknown> & { data: Record<string, unknown> }>).filter(
      (a) => a.rule === "node.downtime",
    );
    expect(outages.map((a) => [a.key, a.status, a.notified])).toEqual([
      [`node:${told}`, "firing", true],
      [`node:${due}`, "pending", false],
    ]);
    expect(outages[0]?.data).toMatchObject({ node_name: "al-down-told", down_since: began });
    expect(outages[0]?.data.downtime_mins as number).toBeGreaterThanOrEqual(2);
  });
});
