import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nowIso } from "../../db/db.js";
import { createTestApp, dialects, type TestApp } from "../../test-support/test-app.js";

/**
 * Issue 10, item 11 (what was left): an outage going on when the console stops is kept on the node's
 * row. After a restart it is reported once, with the minutes since it really began; one already
 * reported is not reported again.
 */
describe.each(dialects())("node downtime across a console restart on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { CHAINLAUNCH_DOWNTIME_GRACE_SECONDS: "30" });
  });
  afterAll(async () => t.close());

  const insertNode = async (name: string, downSince: string, alerted: number): Promise<number> => {
    const now = nowIso();
    const row = await t.database.db
      .insertInto("nodes")
      .values({
        name,
        slug: name,
        platform: "FABRIC",
        node_type: "FABRIC_PEER",
        status: "ERROR",
        error_message: "gave up after 5 restarts",
        endpoint: null,
        organization_id: null,
        network_id: null,
        key_id: null,
        tls_key_id: null,
        config: "{}",
        deployment: "{}",
        down_since: downSince,
        down_reason: "the process exited (signal SIGKILL)",
        down_alerted: alerted,
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  };
  const downtimeNotes = async (nodeId: number): Promise<Array<Record<string, unknown>>> => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/user-notifications?limit=100", headers: t.admin });
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json().notifications as Array<{ event_type: string; event_data: Record<string, unknown> }>;
    return list
      .filter((n) => n.event_type === "node.downtime" && n.event_data.node_id === nodeId)
      .map((n) => n.event_data);
  };
  const waitFor = async <T>(what: string, fn: () => Promise<T | undefined>): Promise<T> => {
    const until = Date.now() + 15_000;
    for (;;) {
      const v = await fn();
      if (v !== undefined) return v;
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it("reports an outage that began before the restart once, with its real length", async () => {
    const began = new Date(Date.now() - 3 * 60_000).toISOString();
    const fresh = await insertNode(`down-new-${dialect}`, began, 0);
    const reported = await insertNode(`down-told-${dialect}`, began, 1);

    await t.restart();
    const [note] = await waitFor("the downtime notification", async () => {
      const n = await downtimeNotes(fresh);
      return n.length ? n : undefined;
    });
    expect(note).toMatchObject({
      node_name: `down-new-${dialect}`,
      reason: "the process exited (signal SIGKILL)",
      down_since: began,
    });
    // Past the 30 s grace long ago: reported at once, counting from when the node went down.
    expect(note!.downtime_mins as number).toBeGreaterThanOrEqual(3);
    const row = () =>
      t.database.db
        .selectFrom("nodes")
        .select(["down_alerted", "down_since"])
        .where("id", "=", fresh)
        .executeTakeFirstOrThrow();
    await waitFor("the row to record the alert", async () => ((await row()).down_alerted === 1 ? true : undefined));
    expect((await row()).down_since).toBe(began);

    // Another restart: both outages are known as reported; nothing new goes out.
    await t.restart();
    await new Promise((r) => setTimeout(r, 500));
    expect(await downtimeNotes(fresh)).toHaveLength(1);
    expect(await downtimeNotes(reported)).toHaveLength(0);
  });

  it("takes the grace period from the settings when set there, over CHAINLAUNCH_DOWNTIME_GRACE_SECONDS", async () => {
    const setGrace = async (seconds: number): Promise<void> => {
      const current = (await t.app.inject({ method: "GET", url: "/api/v1/settings", headers: t.admin })).json().config;
      const res = await t.app.inject({
        method: "POST",
        url: "/api/v1/settings",
        headers: t.admin,
        payload: { config: { ...current, nodeDowntimeGraceSeconds: seconds } },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    const began = new Date(Date.now() - 3 * 60_000).toISOString();
    // 10 minutes in the settings: an outage of 3 minutes is not reported yet (the env's 30 s would have).
    await setGrace(600);
    const early = await insertNode(`down-grace-long-${dialect}`, began, 0);
    await t.restart();
    await new Promise((r) => setTimeout(r, 1500));
    expect(await downtimeNotes(early)).toHaveLength(0);
    // 1 minute: the same 3-minute outage is reported at once.
    await setGrace(60);
    const late = await insertNode(`down-grace-short-${dialect}`, began, 0);
    await t.restart();
    await waitFor("the downtime notification", async () => ((await downtimeNotes(late)).length ? true : undefined));
    const bad = await t.app.inject({
      method: "POST",
      url: "/api/v1/settings",
      headers: t.admin,
      payload: { config: { nodeDowntimeGraceSeconds: -1 } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/nodeDowntimeGraceSeconds/);
  });
});
