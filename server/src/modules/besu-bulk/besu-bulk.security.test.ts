import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditRowOf, managerCallers, type Caller } from "../../test-support/callers.js";
import { createTestApp, dialects, type TestApp } from "../../test-support/test-app.js";

/**
 * Bulk create names keys and nodes after the network, so a name with path characters is refused
 * before anything exists, as a manager session and as a manager API key.
 */
describe.each(dialects())("Besu bulk create names (%s)", (dialect) => {
  let t: TestApp;
  let callers: Caller[];
  beforeAll(async () => {
    t = await createTestApp(dialect);
    callers = await managerCallers(t);
  });
  afterAll(async () => t?.close());

  const counts = async () => ({
    keys: (await t.database.db.selectFrom("keys").select("id").execute()).length,
    networks: (await t.database.db.selectFrom("networks").select("id").execute()).length,
    nodes: (await t.database.db.selectFrom("nodes").select("id").execute()).length,
  });

  it("refuses a network name with path characters, creates nothing, and audits the refusal", async () => {
    for (const c of callers) {
      for (const networkName of ["../../../tmp/x", "a/b", ".hidden", "x\u0000y"]) {
        const before = await counts();
        const res = await t.app.inject({
          method: "POST",
          url: "/api/v1/networks/besu/bulk-create",
          headers: c.headers,
          payload: { networkName, nodeCount: 1, config: { chainId: 9300 }, start: false },
        });
        expect(res.statusCode, `${c.label} ${networkName}: ${res.body}`).toBe(400);
        expect(res.json().message).toMatch(/^body\.networkName: /);
        expect(await counts()).toEqual(before);
        expect(await auditRowOf(t, res)).toMatchObject({
          type: "besu_network.bulk_create",
          outcome: "FAILURE",
          username: c.username,
        });
      }
    }
  });

  it("still creates a network with a plain name", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/networks/besu/bulk-create",
      headers: callers[1]!.headers,
      payload: { networkName: `plain net.1_${dialect}`, nodeCount: 1, config: { chainId: 9301 }, start: false },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().nodes[0].name).toBe(`plain net.1_${dialect}-node-0`);
  });
});
