import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiOf, identityOf, listenAndSetEndpoint, type Api } from "../../test-support/federation.js";
import { createTestApp, createUser, dialects, insertNodeRow, type TestApp } from "../../test-support/test-app.js";
import { waitFor } from "../../test-support/wait.js";
import type { Identity } from "./federation.identity.js";

const ENV = { CHAINLAUNCH_FEDERATION_PING_SECONDS: "0.2" };

interface Console {
  t: TestApp;
  api: Api;
  url: string;
  id: Identity;
}

async function boot(dialect: "sqlite" | "postgres"): Promise<Console> {
  const t = await createTestApp(dialect, ENV);
  const url = await listenAndSetEndpoint(t);
  return { t, api: apiOf(t), url, id: await identityOf(t) };
}

const peersOf = async (c: Console) =>
  (await c.api("GET", "/node/connected-peers")).json().connected_peers as {
    node_id: string;
    status: string;
    peer_endpoint: string;
  }[];
const invite = async (c: Console, options?: object): Promise<string> => {
  const res = await c.api("POST", "/node/generate-invitation", {
    bidirectional: true,
    ...(options ? { options } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().invitation_jwt as string;
};
const accept = (c: Console, jwt: string) => c.api("POST", "/node/accept-invitation", { invitation_jwt: jwt });

describe.each(dialects())("federation between two real consoles (%s)", (d) => {
  let a: Console;
  let b: Console;

  beforeAll(async () => {
    [a, b] = await Promise.all([boot(d), boot(d)]);
  });
  afterAll(async () => {
    await Promise.all([a?.t.close(), b?.t.close()]);
  });

  it("has a stable Ed25519 identity whose node id is derived from the key, stored encrypted", async () => {
    const first = (await a.api("GET", "/node/identity")).json();
    const again = (await a.api("GET", "/node/identity")).json();
    expect(again).toEqual(first);
    const raw = Buffer.from(first.public_key as string, "base64url");
    expect(raw).toHaveLength(32);
    expect(first.node_id).toBe(`cl-${createHash("sha256").update(raw).digest("hex").slice(0, 32)}`);
    expect(first.endpoint).toBe(a.url);
    const row = await a.t.database.db.selectFrom("federation_identity").selectAll().executeTakeFirstOrThrow();
    expect(row.private_key_encrypted).toMatch(/^v1\./);
    expect(row.private_key_encrypted).not.toContain("PRIVATE KEY");
  });

  it("refuses invitations without an endpoint; creates one identity under concurrent first use, kept across restarts", async () => {
    const t = await createTestApp(d);
    try {
      const res = await apiOf(t)("POST", "/node/generate-invitation", { bidirectional: true });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/federationEndpoint.*CHAINLAUNCH_PUBLIC_URL/);
      const ids = await Promise.all([1, 2, 3].map(async () => (await apiOf(t)("GET", "/node/identity")).json()));
      expect(new Set(ids.map((i) => i.node_id)).size).toBe(1);
      expect(ids[0].endpoint).toBeNull();
      await t.restart();
      expect((await apiOf(t)("GET", "/node/identity")).json()).toEqual(ids[0]);
    } finally {
      await t.close();
    }
  });

  it("connects A and B both ways: invite, accept, each lists the other as connected", async () => {
    const res = await accept(b, await invite(a));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: expect.stringContaining(a.id.nodeId) });
    expect(await peersOf(a)).toEqual([
      expect.objectContaining({ node_id: b.id.nodeId, status: "connected", peer_endpoint: b.url }),
    ]);
    expect(await peersOf(b)).toEqual([
      expect.objectContaining({ node_id: a.id.nodeId, status: "connected", peer_endpoint: a.url }),
    ]);
    // The other way round re-registers the same pair, no duplicates.
    const back = await accept(a, await invite(b, { expires_in_hours: 2 }));
    expect(back.statusCode, back.body).toBe(200);
    expect((await peersOf(a)).map((p) => p.node_id)).toEqual([b.id.nodeId]);
    expect((await peersOf(b)).map((p) => p.node_id)).toEqual([a.id.nodeId]);
  });

  it("audits both sides of a connection, refusals included", async () => {
    const audit = async (c: Console, type: string) =>
      c.t.database.db
        .selectFrom("audit_logs")
        .select(["event_outcome as outcome", "affected_resource as resource"])
        .where("event_type", "=", type)
        .orderBy("id")
        .execute();
    expect(await audit(b, "federation.invitation_accept")).toContainEqual({
      outcome: "SUCCESS",
      resource: `federation_peer:${a.id.nodeId}`,
    });
    expect(await audit(a, "federation.handshake")).toContainEqual({
      outcome: "SUCCESS",
      resource: `federation_peer:${b.id.nodeId}`,
    });
    const accepts = (await audit(b, "federation.invitation_accept")).length;
    const handshakes = (await audit(a, "federation.handshake")).length;
    const jwt = await invite(a);
    expect((await accept(b, jwt)).statusCode).toBe(200);
    expect((await accept(b, jwt)).statusCode).toBe(409);
    // Audit rows are written after each response is sent: wait for both calls' rows on both sides.
    await waitFor(
      "both accepts and both handshakes audited",
      async () =>
        (await audit(b, "federation.invitation_accept")).length >= accepts + 2 &&
        (await audit(a, "federation.handshake")).length >= handshakes + 2
          ? true
          : undefined,
      10_000,
    );
    expect((await audit(a, "federation.handshake")).at(-1)).toEqual({
      outcome: "FAILURE",
      resource: `federation_peer:${b.id.nodeId}`,
    });
    expect((await audit(b, "federation.invitation_accept")).at(-1)?.outcome).toBe("FAILURE");
  });

  it("lets viewers read and only admins and managers change", async () => {
    const viewer = apiOf(a.t, await createUser(a.t, "fedviewer", "viewer"));
    expect((await viewer("GET", "/node/connected-peers")).statusCode).toBe(200);
    expect((await viewer("GET", "/external-nodes")).statusCode).toBe(200);
    expect((await viewer("POST", "/node/generate-invitation", {})).statusCode).toBe(403);
    const manager = apiOf(a.t, await createUser(a.t, "fedmanager", "manager"));
    expect((await manager("POST", "/node/generate-invitation", {})).statusCode).toBe(200);
  });

  it("syncs A's organization, peer and orderer to B with certificates and no private material", async () => {
    const org = await a.api("POST", "/organizations", { mspId: "FedOrgAMSP", name: "Fed Org A" });
    expect(org.statusCode, org.body).toBe(201);
    const o = org.json();
    const deployment = (role: string, port: number) => ({
      kind: "fabric",
      role,
      version: "3.1.0",
      mspId: "FedOrgAMSP",
      organizationId: o.id,
      externalEndpoint: `a.example.com:${port}`,
      adminAddress: "0.0.0.0:9443",
      signCert: o.signCertificate,
      tlsCert: o.tlsCertificate,
      signCaCert: o.signCertificate,
      tlsCaCert: o.tlsCertificate,
      ports: [],
    });
    const insert = (name: string, nodeType: "FABRIC_PEER" | "FABRIC_ORDERER" | "BESU_FULLNODE", dep: object) =>
      insertNodeRow(a.t, { name, nodeType, deployment: dep, organizationId: o.id });
    const peer = await insert("fed-peer0", "FABRIC_PEER", deployment("peer", 7051));
    await insert("fed-orderer0", "FABRIC_ORDERER", deployment("orderer", 7050));
    const enode = `enode://${"ab".repeat(64)}@10.0.0.5:30303`;
    await insert("fed-besu0", "BESU_FULLNODE", {
      kind: "besu",
      enodeUrl: enode,
      keyFile: "/secret/key",
      props: {
        externalIp: "10.0.0.5",
        p2pPort: 30303,
        rpcPort: 8545,
        metricsEnabled: true,
        metricsPort: 9545,
        version: "25.4.1",
      },
    });

    const live = await b.api("GET", `/node/connected-peers/${a.id.nodeId}/nodes`);
    expect(live.statusCode, live.body).toBe(200);
    expect(live.json().organizations).toEqual([expect.objectContaining({ mspId: "FedOrgAMSP", name: "Fed Org A" })]);

    const sync = await b.api("POST", "/node/sync-external-nodes", { peer_node_id: a.id.nodeId });
    expect(sync.statusCode, sync.body).toBe(200);
    expect(sync.json()).toMatchObject({
      organizations_added: 1,
      fabric_peers_added: 1,
      fabric_orderers_added: 1,
      besu_nodes_added: 1,
      errors: [],
    });
    const orgs = (await b.api("GET", "/external-nodes/fabric-organizations")).json();
    expect(orgs).toEqual([
      expect.objectContaining({
        mspId: "FedOrgAMSP",
        name: "Fed Org A",
        signCertificate: o.signCertificate,
        tlsCertificate: o.tlsCertificate,
      }),
    ]);
    const all = await b.api("GET", "/external-nodes");
    expect(all.json().fabric_peers).toEqual([
      expect.objectContaining({ name: "fed-peer0", mspId: "FedOrgAMSP", externalEndpoint: "a.example.com:7051" }),
    ]);
    expect(all.json().fabric_orderers).toEqual([
      expect.objectContaining({ name: "fed-orderer0", tlsCaCertificate: o.tlsCertificate }),
    ]);
    expect(all.json().besu_nodes).toEqual([
      expect.objectContaining({ name: "fed-besu0", enodeUrl: enode, rpcUrl: "http://10.0.0.5:8545", p2pPort: 30303 }),
    ]);
    // No private key, key path or orderer admin address in anything B received or stored.
    const stored = JSON.stringify(
      await Promise.all(
        (["external_fabric_organizations", "external_fabric_nodes", "external_besu_nodes"] as const).map((tbl) =>
          b.t.database.db.selectFrom(tbl).selectAll().execute(),
        ),
      ),
    );
    for (const text of [live.body, all.body, JSON.stringify(orgs), stored]) {
      expect(text).not.toMatch(/PRIVATE KEY/);
      // The admin address is 0.0.0.0:9443: look for it with its colon, which no base64 certificate holds
      // (a bare "9443" turns up in one certificate's base64 now and then).
      expect(text).not.toContain(":9443");
      expect(text).not.toContain("adminAddress");
      expect(text).not.toContain("/secret/key");
    }

    // A node gone on A is gone on B at the next sync; a deleted record comes back.
    await a.t.database.db.deleteFrom("nodes").where("id", "=", peer.id).execute();
    const again = (await b.api("POST", "/node/sync-external-nodes", { peer_node_id: a.id.nodeId })).json();
    expect(again).toMatchObject({ organizations_added: 0, fabric_peers_deleted: 1, fabric_orderers_added: 0 });
    const orgId = orgs[0].id as number;
    expect((await b.api("DELETE", `/external-nodes/fabric-organizations/${orgId}`)).statusCode).toBe(200);
    expect((await b.api("DELETE", `/external-nodes/fabric-organizations/${orgId}`)).statusCode).toBe(404);
    expect((await b.api("DELETE", `/external-nodes/fabric-peers/${orgId}`)).statusCode).toBe(404);
  });
});
