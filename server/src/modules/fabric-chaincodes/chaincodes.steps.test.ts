import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nowIso } from "../../db/db.js";
import { waitFor } from "../../test-support/wait.js";
import { createTestApp, dialects, insertNetworkRow, type TestApp } from "../../test-support/test-app.js";

/**
 * Timeline entries of steps a console stopped during: an approve or commit left "started" (the
 * entry is written before anything is sent) becomes "interrupted" when the console starts again,
 * so the timeline never keeps a step that will not end; builds of older versions, which wrote
 * "started" and the outcome as two entries, are left as they were.
 */
describe.each(dialects())("interrupted chaincode steps on %s", (dialect) => {
  let t: TestApp;
  let definitionId: number;
  const timeline = async (): Promise<{ id: number; event_type: string; event_data: Record<string, unknown> }[]> =>
    (
      await t.app.inject({
        method: "GET",
        url: `/api/v1/sc/fabric/definitions/${definitionId}/timeline`,
        headers: t.admin,
      })
    ).json();
  const insert = (event_type: string, data: Record<string, unknown>) =>
    t.database.db
      .insertInto("fabric_chaincode_events")
      .values({ definition_id: definitionId, event_type, event_data: JSON.stringify(data), created_at: nowIso() })
      .execute();

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const net = await insertNetworkRow(t, "stepchannel");
    const post = (url: string, payload: object) =>
      t.app.inject({ method: "POST", url: `/api/v1${url}`, headers: t.admin, payload });
    const cc = (await post("/sc/fabric/chaincodes", { name: "steps", network_id: net.id })).json().chaincode;
    const def = await post(`/sc/fabric/chaincodes/${cc.id}/definitions`, { version: "1", sequence: 1 });
    expect(def.statusCode, def.body).toBe(200);
    definitionId = def.json().definition.id;
  });
  afterAll(async () => t.close());

  it("marks steps left started as interrupted at the next start, and nothing else", async () => {
    await insert("approve", { status: "started", user: "admin", peer_id: 7, msp_id: "Org1MSP" });
    await insert("commit", { status: "started", user: "admin", peer_id: 7, msp_id: "Org1MSP" });
    await insert("approve", { status: "success", user: "admin", tx_id: "ab", duration_ms: 12 });
    // An older version's build: "started", then its outcome as another entry.
    await insert("build", { status: "started", user: "admin", source_type: "node" });
    await insert("build", { status: "success", user: "admin" });

    await t.restart();
    const after = await waitFor(
      "the approve marked interrupted",
      async () => {
        const tl = await timeline();
        return tl.find((e) => e.event_type === "approve")?.event_data.status === "interrupted" ? tl : undefined;
      },
      10_000,
    );
    expect(after.map((e) => `${e.event_type}:${String(e.event_data.status)}`)).toEqual([
      "created:success",
      "approve:interrupted",
      "commit:interrupted",
      "approve:success",
      "build:started",
      "build:success",
    ]);
    const interrupted = after.filter((e) => e.event_data.status === "interrupted");
    for (const e of interrupted) {
      expect(e.event_data).toMatchObject({ user: "admin", peer_id: 7, msp_id: "Org1MSP" });
      expect(e.event_data.error).toMatch(/the console stopped during this step.*retry it/);
    }

    // A step started after this start is not touched by its sweep.
    await insert("commit", { status: "started", user: "admin" });
    await new Promise((r) => setTimeout(r, 200));
    expect((await timeline()).at(-1)?.event_data.status).toBe("started");
  });
});
