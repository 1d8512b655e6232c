import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, dialects, insertNetworkRow, type TestApp } from "../../test-support/test-app.js";
import { createChaincodesRepo, type AdoptInput, type ChaincodesRepo } from "./chaincodes.repo.js";

/**
 * Adoption of chaincodes committed outside this console, on both databases without nodes: the
 * repository records each committed definition once however many calls race, fills a registered
 * name, and never touches a definition the console made; the route's refusals. Reading the
 * channel and the upgrade afterwards run on real binaries in chaincodes.adopt.e2e.test.ts.
 */
describe.each(dialects())("adopting committed chaincodes on %s", (dialect) => {
  let t: TestApp;
  let repo: ChaincodesRepo;
  let networkId: number;
  const call = async (method: "GET" | "POST", url: string, payload?: object) => {
    const res = await t.app.inject({ method, url: `/api/v1${url}`, headers: t.admin, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: res.json() };
  };
  const committed = (name: string, sequence: number, version = "1.0"): AdoptInput => {
    const now = new Date().toISOString();
    return {
      networkId,
      name,
      definition: {
        version,
        sequence,
        endorsement_policy: "/Channel/Application/Endorsement",
        init_required: 0,
        collections: "[]",
        docker_image: "",
        chaincode_address: "127.0.0.1:19100",
        source_type: "none",
        source_path: null,
        tls: 0,
        tls_key_id: null,
        package_id: null,
        environment: "{}",
        deploy_status: "none",
        deploy_error: null,
        created_at: now,
        updated_at: now,
      },
      events: [
        { event_type: "adopted", event_data: JSON.stringify({ status: "success" }), created_at: now },
        { event_type: "commit", event_data: JSON.stringify({ status: "success", outside: true }), created_at: now },
      ],
    };
  };
  const rows = async (name: string) => {
    const db = t.database.db;
    const ccs = await db
      .selectFrom("fabric_chaincodes")
      .select("id")
      .where("network_id", "=", networkId)
      .where("name", "=", name)
      .execute();
    const defs = await db
      .selectFrom("fabric_chaincode_definitions")
      .selectAll()
      .where(
        "chaincode_id",
        "in",
        ccs.map((c) => c.id),
      )
      .execute();
    const events = defs.length
      ? await db
          .selectFrom("fabric_chaincode_events")
          .select("event_type")
          .where(
            "definition_id",
            "in",
            defs.map((d) => d.id),
          )
          .orderBy("id")
          .execute()
      : [];
    return { ccs, defs, events: events.map((e) => e.event_type) };
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    repo = createChaincodesRepo(t.database.db);
    networkId = (await insertNetworkRow(t, "adoptchannel")).id;
  });
  afterAll(async () => t.close());

  it("records a chaincode committed elsewhere exactly once, however many calls race", async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => repo.adopt(committed("racer", 1))));
    expect(results.filter((r) => r.adopted)).toHaveLength(1);
    expect(new Set(results.map((r) => r.chaincodeId)).size).toBe(1);
    expect(new Set(results.map((r) => r.definitionId)).size).toBe(1);
    expect(results.every((r) => r.origin === "adopted")).toBe(true);
    const { ccs, defs, events } = await rows("racer");
    expect(ccs).toHaveLength(1);
    expect(defs).toHaveLength(1);
    expect(defs[0]).toMatchObject({ sequence: 1, version: "1.0", source_type: "none", origin: "adopted" });
    expect(events).toEqual(["adopted", "commit"]);

    // A later upgrade made outside is a second definition; the first stays as it was.
    const [a, b] = await Promise.all([repo.adopt(committed("racer", 2, "2.0")), repo.adopt(committed("racer", 2))]);
    expect([a?.adopted, b?.adopted].filter(Boolean)).toHaveLength(1);
    const after = await rows("racer");
    expect(after.defs.map((d) => [d.sequence, d.version]).sort()).toEqual([
      [1, "1.0"],
      [2, a?.adopted ? "2.0" : "1.0"],
    ]);
  });

  it("fills a name registered without a definition, and shows it with its origin", async () => {
    const cc = (await call("POST", "/sc/fabric/chaincodes", { name: "registered", network_id: networkId })).body
      .chaincode;
    expect(cc.latest_definition).toBeNull();
    const r = await repo.adopt(committed("registered", 1));
    expect(r).toMatchObject({ chaincodeId: cc.id, adopted: true });
    const got = (await call("GET", `/sc/fabric/chaincodes/${cc.id}`)).body;
    expect(got.latest_definition).toMatchObject({ version: "1.0", sequence: 1, origin: "adopted" });
    const defs = (await call("GET", `/sc/fabric/chaincodes/${cc.id}/definitions`)).body.definitions;
    expect(defs).toHaveLength(1);
    expect(defs[0]).toMatchObject({
      sequence: 1,
      source_type: "none",
      origin: "adopted",
      endorsement_policy: "/Channel/Application/Endorsement",
    });
    const timeline = (await call("GET", `/sc/fabric/definitions/${defs[0].id}/timeline`)).body;
    expect(timeline.map((e: { event_type: string }) => e.event_type)).toEqual(["adopted", "commit"]);
  });

  it("never changes a definition the console made at that sequence", async () => {
    const cc = (await call("POST", "/sc/fabric/chaincodes", { name: "mine", network_id: networkId })).body.chaincode;
    const def = (
      await call("POST", `/sc/fabric/chaincodes/${cc.id}/definitions`, {
        version: "1.0",
        sequence: 1,
        endorsement_policy: "OR('Org1MSP.peer')",
        chaincode_address: "127.0.0.1:19998",
      })
    ).body.definition;
    expect(def.origin).toBe("console");
    const r = await repo.adopt(committed("mine", 1, "9.9"));
    expect(r).toEqual({ chaincodeId: cc.id, definitionId: def.id, adopted: false, origin: "console" });
    const { defs, events } = await rows("mine");
    expect(defs).toHaveLength(1);
    expect(defs[0]).toMatchObject({ version: "1.0", endorsement_policy: "OR('Org1MSP.peer')", origin: "console" });
    expect(events).toEqual(["created"]);
  });

  it("answers the route's refusals with the field or the reason, and audits no read", async () => {
    const bad = await call("GET", "/networks/fabric/abc/chaincodes/committed");
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/id/);
    const missing = await call("GET", "/networks/fabric/999999/chaincodes/committed");
    expect(missing.status).toBe(404);
    expect(missing.body.message).toMatch(/Fabric network 999999 not found/);
    const noPeer = await call("GET", `/networks/fabric/${networkId}/chaincodes/committed`);
    expect(noPeer.status).toBe(409);
    expect(noPeer.body.message).toBe(
      "channel 'adoptchannel' has no running joined peer on this console to read its committed chaincodes from",
    );
    const audit = JSON.stringify((await call("GET", "/audit/logs?page_size=500")).body);
    expect(audit).not.toContain("chaincode.adopt");
  });
});
