import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildGenesisBlock } from "../../fabric/configtx/index.js";
import { buildChannelMsp } from "../../fabric/msp/index.js";
import { createFabricBinaryResolver } from "../../runtime/index.js";
import { reservePorts } from "../../test-support/ports.js";
import { createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";

const FABRIC = process.env.CHAINLAUNCH_E2E_FABRIC_VERSION ?? "3.1.0";
const haveFabric = !!(await createFabricBinaryResolver({ downloader: null }).findLocal(FABRIC, ["peer", "orderer"]));
if (!haveFabric) console.warn(`fabric network removal tests skipped: no Fabric ${FABRIC} binaries to create nodes`);

interface Node {
  id: number;
  fabricOrderer?: { externalEndpoint: string; tlsCert: string };
}

/**
 * Upstream's routes the Terraform provider uses on a network record: lookup by name and removal
 * of a peer or orderer (DELETE). Nodes are created stopped; the channel is imported from a
 * genesis block built for them, so no process runs (the joined cases run in the e2e test).
 */
describe.skipIf(!haveFabric).each(dialects())("Fabric network lookup by name and node removal on %s", (dialect) => {
  let t: TestApp;
  let networkId: number;
  let peer: Node;
  let orderer: Node;
  /** First of the ports this dialect's stopped nodes are created with. */
  let base: number;
  const call = (method: "GET" | "POST" | "DELETE", url: string, payload?: object, headers = t.admin) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  const members = async (): Promise<{ nodeId: number; role: string; status: string }[]> =>
    (await call("GET", `/networks/fabric/${networkId}/nodes`)).json().nodes;

  beforeAll(async () => {
    base = await reservePorts(6);
    t = await createTestApp(dialect);
    const org = (await call("POST", "/organizations", { mspId: "RmOrgMSP", name: "Rm" })).json();
    const node = async (name: string, kind: "fabricPeer" | "fabricOrderer", off: number): Promise<Node> => {
      const res = await call("POST", "/nodes?start=false", {
        name,
        blockchainPlatform: "FABRIC",
        [kind]: {
          organizationId: org.id,
          mspId: org.mspId,
          version: FABRIC,
          listenAddress: `127.0.0.1:${base + off}`,
          ...(kind === "fabricPeer"
            ? { chaincodeAddress: `127.0.0.1:${base + off + 1}` }
            : { adminAddress: `127.0.0.1:${base + off + 1}` }),
          operationsListenAddress: `127.0.0.1:${base + off + 2}`,
          externalEndpoint: `127.0.0.1:${base + off}`,
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json();
    };
    orderer = await node(`rm-orderer-${dialect}`, "fabricOrderer", 0);
    peer = await node(`rm-peer-${dialect}`, "fabricPeer", 3);
    const msp = buildChannelMsp({ mspId: org.mspId, caCertPem: org.signCertificate, tlsCaCertPem: org.tlsCertificate });
    const tls = orderer.fabricOrderer!.tlsCert;
    const [host, port] = orderer.fabricOrderer!.externalEndpoint.split(":");
    const block = buildGenesisBlock({
      channelId: "rmchannel",
      fabricVersion: FABRIC,
      peerOrgs: [{ msp }],
      ordererOrgs: [{ msp, ordererEndpoints: [orderer.fabricOrderer!.externalEndpoint] }],
      consensus: {
        type: "etcdraft",
        consenters: [{ host: host!, port: Number(port), clientTlsCert: tls, serverTlsCert: tls }],
      },
    });
    const imported = await call("POST", "/networks/fabric/import", {
      genesisFile: Buffer.from(block.serializeBinary()).toString("base64"),
    });
    expect(imported.statusCode, imported.body).toBe(200);
    networkId = imported.json().networkId;
  });
  afterAll(async () => t?.close());

  it("finds a Fabric network by its name, and answers 404 naming a missing one or a Besu network's name", async () => {
    const res = await call("GET", "/networks/fabric/by-name/rmchannel");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: networkId, name: "rmchannel", platform: "FABRIC" });
    const missing = await call("GET", "/networks/fabric/by-name/nochannel");
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe("name: no Fabric network named 'nochannel'");
    // A Besu network's name is not a Fabric network (names are unique across platforms).
    const key = (await call("POST", "/keys", { name: `v-${dialect}`, algorithm: "EC", curve: "secp256k1" })).json();
    const besu = await call("POST", "/networks/besu", {
      name: "besu-by-name",
      config: { chainId: 4321, initialValidatorsKeyIds: [key.id] },
    });
    expect(besu.statusCode, besu.body).toBe(200);
    expect((await call("GET", "/networks/fabric/by-name/besu-by-name")).statusCode).toBe(404);
    expect((await call("GET", "/networks/fabric/by-name/rmchannel", undefined, await viewer("a"))).statusCode).toBe(
      200,
    );
  });

  it("removes a peer that never joined from the record (200 with the network), then 404s naming peerId", async () => {
    await call("POST", `/networks/fabric/${networkId}/nodes`, { nodeId: peer.id, role: "peer" });
    await call("POST", `/networks/fabric/${networkId}/nodes`, { nodeId: orderer.id, role: "orderer" });
    expect((await members()).map((m) => `${m.role}/${m.status}`)).toEqual(["peer/pending", "orderer/pending"]);

    const wrongKind = await call("DELETE", `/networks/fabric/${networkId}/peers/${orderer.id}`);
    expect(wrongKind.statusCode).toBe(404);
    expect(wrongKind.json().message).toMatch(/^peerId: node \d+ is an orderer of network 'rmchannel', not a peer/);

    // Go clients (the Terraform provider) send Content-Type: application/json and no body.
    const res = await t.app.inject({
      method: "DELETE",
      url: `/api/v1/networks/fabric/${networkId}/peers/${peer.id}`,
      headers: { ...t.admin, "content-type": "application/json" },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: networkId, name: "rmchannel" });
    expect((await members()).map((m) => m.nodeId)).toEqual([orderer.id]);
    const again = await call("DELETE", `/networks/fabric/${networkId}/peers/${peer.id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(`peerId: node ${peer.id} is not in network 'rmchannel'`);
    // The node itself is kept.
    expect((await call("GET", `/nodes/${peer.id}`)).statusCode).toBe(200);
  });

  it("refuses to remove an orderer that joined and is a consenter (409), and leaves it in place", async () => {
    // As if its join had gone through (the e2e test joins real orderers).
    await t.database.db
      .updateTable("network_nodes")
      .set({ status: "joined" })
      .where("network_id", "=", networkId)
      .where("node_id", "=", orderer.id)
      .execute();
    const res = await call("DELETE", `/networks/fabric/${networkId}/orderers/${orderer.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(
      /^ordererId: orderer 'rm-orderer-.*' \(127\.0\.0\.1:\d+\) is a consenter of channel 'rmchannel'; remove it from the consenter set first/,
    );
    expect((await members()).map((m) => `${m.nodeId}/${m.status}`)).toEqual([`${orderer.id}/joined`]);

    await t.database.db
      .updateTable("network_nodes")
      .set({ status: "unjoined" })
      .where("network_id", "=", networkId)
      .where("node_id", "=", orderer.id)
      .execute();
    const removed = await call("DELETE", `/networks/fabric/${networkId}/orderers/${orderer.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await members()).toEqual([]);
  });

  it("answers 404 for a missing network, 400 naming an out-of-range id, 403 for viewers", async () => {
    expect((await call("DELETE", `/networks/fabric/999999/peers/${peer.id}`)).statusCode).toBe(404);
    const bad = await call("DELETE", `/networks/fabric/${networkId}/orderers/4294967296`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/ordererId/);
    await call("POST", `/networks/fabric/${networkId}/nodes`, { nodeId: peer.id, role: "peer" });
    const denied = await call("DELETE", `/networks/fabric/${networkId}/peers/${peer.id}`, undefined, await viewer("b"));
    expect(denied.statusCode).toBe(403);
    expect((await members()).map((m) => m.nodeId)).toEqual([peer.id]);
  });

  const viewer = (suffix: string) => createUser(t, `rm-viewer-${suffix}-${dialect}`, "viewer");
});
