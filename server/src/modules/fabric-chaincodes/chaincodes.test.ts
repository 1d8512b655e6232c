import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, dialects, insertNetworkRow, type TestApp } from "../../test-support/test-app.js";

/**
 * Chaincodes and definitions through the API without running nodes: shapes, named 400s and 409s,
 * concurrent creation, and nothing left behind by a refused request. The lifecycle on real peers is
 * in chaincodes.e2e.test.ts.
 */
describe.each(dialects())("Fabric chaincodes on %s", (dialect) => {
  let t: TestApp;
  let networkId: number;
  const inject = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: t.admin, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    t = await createTestApp(dialect, process.env.CC_DEBUG ? { LOG_LEVEL: "error" } : {});
    // A channel record without nodes: enough for everything that does not ask a peer.
    const row = await insertNetworkRow(t, "ccchannel");
    networkId = row.id;
  });
  afterAll(async () => t.close());

  it("creates chaincodes and definitions in the reference's shapes", async () => {
    const res = await inject("POST", "/sc/fabric/chaincodes", { name: "asset-transfer", network_id: networkId });
    expect(res.statusCode, res.body).toBe(200);
    const cc = res.json().chaincode;
    expect(cc).toMatchObject({
      name: "asset-transfer",
      network_id: networkId,
      network_name: "ccchannel",
      network_platform: "FABRIC",
      definitions_count: 0,
      latest_definition: null,
    });
    const def = await inject("POST", `/sc/fabric/chaincodes/${cc.id}/definitions`, {
      version: "1.0",
      sequence: 1,
      endorsement_policy: "AND('Org1MSP.peer','Org2MSP.peer')",
      docker_image: "",
      chaincode_address: "127.0.0.1:19999",
      collections: [{ name: "private", policy: "OR('Org1MSP.member')", maxPeerCount: 1 }],
    });
    expect(def.statusCode, def.body).toBe(200);
    const d = def.json().definition;
    expect(d).toMatchObject({
      chaincode_id: cc.id,
      version: "1.0",
      sequence: 1,
      chaincode_address: "127.0.0.1:19999",
      source_type: "none",
      deploy_status: "none",
      init_required: false,
    });
    const list = (await inject("GET", `/sc/fabric/chaincodes/${cc.id}/definitions`)).json().definitions;
    expect(list).toHaveLength(1);
    const detail = (await inject("GET", `/sc/fabric/chaincodes/${cc.id}/definitions/${d.id}`)).json();
    expect(detail.definition.id).toBe(d.id);
    expect(detail.events.map((e: { event_type: string }) => e.event_type)).toEqual(["created"]);
    const timeline = (await inject("GET", `/sc/fabric/definitions/${d.id}/timeline`)).json();
    expect(timeline[0]).toMatchObject({
      definition_id: d.id,
      event_type: "created",
      event_data: { status: "success" },
    });

    // A free port is chosen when no address is given.
    const cc2 = (await inject("POST", "/sc/fabric/chaincodes", { name: "auto-port", network_id: networkId })).json()
      .chaincode;
    const auto = await inject("POST", `/sc/fabric/chaincodes/${cc2.id}/definitions`, { version: "1", sequence: 1 });
    expect(auto.json().definition.chaincode_address).toMatch(/^127\.0\.0\.1:\d+$/);

    const all = (await inject("GET", "/sc/fabric/chaincodes")).json().chaincodes;
    expect(all.find((c: { id: number }) => c.id === cc.id)).toMatchObject({
      definitions_count: 1,
      latest_definition: { id: d.id, version: "1.0", sequence: 1, deploy_status: "none" },
    });

    const upd = await inject("PUT", `/sc/fabric/definitions/${d.id}`, {
      version: "1.1",
      sequence: 1,
      docker_image: "",
      endorsement_policy: "OR('Org1MSP.peer')",
    });
    expect(upd.statusCode, upd.body).toBe(200);
    expect(upd.json()).toMatchObject({ version: "1.1", endorsement_policy: "OR('Org1MSP.peer')" });
  });

  it("answers named 400s and 409s and keeps nothing of a refused request", async () => {
    const cc = (await inject("POST", "/sc/fabric/chaincodes", { name: "checks", network_id: networkId })).json()
      .chaincode;
    const before = (await inject("GET", `/sc/fabric/chaincodes/${cc.id}/definitions`)).json().definitions.length;
    const bad: [object, number, RegExp][] = [
      [{ version: "1 0", sequence: 1 }, 400, /^version: "1 0" is not a valid version/],
      [{ version: "1", sequence: 2 }, 400, /^sequence: .*the next definition must use sequence 1, not 2/],
      [{ version: "1", sequence: 0 }, 400, /sequence/],
      [
        { version: "1", sequence: 1, endorsement_policy: "AND('Org1MSP.peer' 'Org2MSP.peer')" },
        400,
        /^endorsement_policy: invalid policy .* at position 20: expected "\)", found "'Org2MSP.peer'"/,
      ],
      [
        { version: "1", sequence: 1, endorsement_policy: "ANY('Org1MSP.peer')" },
        400,
        /^endorsement_policy: invalid policy .* at position 1: unknown function "ANY"/,
      ],
      [{ version: "1", sequence: 1, endorsement_policy: "OR('Org1MSP.boss')" }, 400, /Org1MSP\.boss/],
      [
        { version: "1", sequence: 1, collections: [{ name: "a b", policy: "OR('O.member')" }] },
        400,
        /^collections\[0\]\.name/,
      ],
      [
        { version: "1", sequence: 1, collections: [{ name: "c", policy: "OR('O.member'" }] },
        400,
        /^collections\[0\]\.policy: invalid policy/,
      ],
      [{ version: "1", sequence: 1, source_type: "docker" }, 400, /^docker_image: required/],
      [{ version: "1", sequence: 1, source_path: "/nonexistent/dir" }, 400, /^source_path: .* does not exist/],
      [{ version: "1", sequence: 1, chaincode_address: "nohostport" }, 400, /chaincode_address/],
    ];
    for (const [body, status, msg] of bad) {
      const res = await inject("POST", `/sc/fabric/chaincodes/${cc.id}/definitions`, body);
      expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(status);
      expect(res.json().message, JSON.stringify(body)).toMatch(msg);
    }
    expect((await inject("GET", `/sc/fabric/chaincodes/${cc.id}/definitions`)).json().definitions).toHaveLength(before);

    const names: [object, number, RegExp][] = [
      [{ name: "bad name", network_id: networkId }, 400, /^name: "bad name" is not a valid chaincode name/],
      [{ name: "-lead", network_id: networkId }, 400, /^name:/],
      [{ name: "ok", network_id: 999_999 }, 400, /^network_id: Fabric network 999999 not found/],
      [
        { name: "checks", network_id: networkId },
        409,
        /^name: chaincode 'checks' already exists on channel 'ccchannel'/,
      ],
    ];
    for (const [body, status, msg] of names) {
      const res = await inject("POST", "/sc/fabric/chaincodes", body);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().message).toMatch(msg);
    }

    const d = (await inject("POST", `/sc/fabric/chaincodes/${cc.id}/definitions`, { version: "1", sequence: 1 })).json()
      .definition;
    const dup = await inject("POST", `/sc/fabric/chaincodes/${cc.id}/definitions`, { version: "2", sequence: 1 });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toMatch(/^sequence: chaincode 'checks' already has a definition with sequence 1/);

    // Actions that need what is missing.
    const deploy = await inject("POST", `/sc/fabric/definitions/${d.id}/deploy`, {});
    expect(deploy.statusCode).toBe(400);
    expect(deploy.json().message).toMatch(/^source_type: this definition has no source yet/);
    const docker = (
      await inject("POST", `/sc/fabric/chaincodes/${cc.id}/definitions`, {
        version: "1",
        sequence: 1,
        docker_image: "hyperledger/asset:1",
      })
    ).json();
    expect(docker.message).toMatch(/sequence 1/);
    await inject("PUT", `/sc/fabric/definitions/${d.id}`, {
      version: "1",
      sequence: 1,
      docker_image: "x/y:1",
      source_type: "docker",
    });
    const noDocker = await inject("POST", `/sc/fabric/definitions/${d.id}/deploy`, {});
    expect(noDocker.statusCode).toBe(400);
    expect(noDocker.json().message).toMatch(/^docker_image: .*(needs a Docker engine|Docker runtime is not available)/);
    const install = await inject("POST", `/sc/fabric/definitions/${d.id}/install`, { peer_ids: [424242] });
    expect(install.statusCode).toBe(400);
    expect(install.json().message).toMatch(/^peer_ids\[0\]: node 424242 not found/);
    const approve = await inject("POST", `/sc/fabric/definitions/${d.id}/approve`, {});
    expect(approve.statusCode).toBe(400);
    expect((await inject("GET", "/sc/fabric/definitions/999999/timeline")).statusCode).toBe(404);
    expect((await inject("GET", "/sc/fabric/chaincodes/999999")).statusCode).toBe(404);
    expect((await inject("GET", `/sc/fabric/definitions/${d.id}/docker-info`)).statusCode).toBe(404);
  });

  it("creates the same chaincode concurrently exactly once", async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        inject("POST", "/sc/fabric/chaincodes", { name: "racer", network_id: networkId }),
      ),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(7);
  });

  it("deletes a chaincode with its definitions", async () => {
    const cc = (await inject("POST", "/sc/fabric/chaincodes", { name: "gone", network_id: networkId })).json()
      .chaincode;
    const created = await inject("POST", `/sc/fabric/chaincodes/${cc.id}/definitions`, { version: "1", sequence: 1 });
    expect(created.statusCode, created.body).toBe(200);
    const d = created.json().definition;
    const del = await inject("DELETE", `/sc/fabric/chaincodes/${cc.id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect((await inject("GET", `/sc/fabric/chaincodes/${cc.id}`)).statusCode).toBe(404);
    expect((await inject("GET", `/sc/fabric/definitions/${d.id}/timeline`)).statusCode).toBe(404);
  });

  it("refuses to delete a network that still has chaincodes, naming one", async () => {
    const net = await insertNetworkRow(t, "busychannel");
    const cc = (await inject("POST", "/sc/fabric/chaincodes", { name: "tenant", network_id: net.id })).json().chaincode;
    const refused = await inject("DELETE", `/networks/fabric/${net.id}`);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().message).toBe(
      "id: network 'busychannel' is still used by chaincode 'tenant'; delete that first",
    );
    expect((await inject("GET", `/sc/fabric/chaincodes/${cc.id}`)).statusCode).toBe(200);
    expect((await inject("DELETE", `/sc/fabric/chaincodes/${cc.id}`)).statusCode).toBe(200);
    const del = await inject("DELETE", `/networks/fabric/${net.id}`);
    expect(del.statusCode, del.body).toBe(204);
  });
});
