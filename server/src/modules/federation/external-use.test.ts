import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enodeUrl } from "../../besu/index.js";
import { reservePorts } from "../../test-support/ports.js";
import { bootConsole, type Console } from "../../test-support/sharing.js";
import { dialects, insertNetworkRow, insertNodeRow } from "../../test-support/test-app.js";
import { createExternalRefs } from "../fabric-networks/fabric-networks.external.js";
import { createExternalNodesRepo } from "./external-nodes.repo.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * External organizations, orderers and Besu nodes used where the console takes them (issue 16):
 * B syncs them from a real console A, then names them by id in a config update, an import and a
 * Besu node's bootnodes.
 */
describe.each(dialects())("external nodes used by the console (%s)", (d) => {
  let a: Console;
  let b: Console;
  let org: Json;
  const ordererEndpoint = "127.0.0.1:1";
  const secp256k1Pem = (): string =>
    generateKeyPairSync("ec", { namedCurve: "secp256k1" }).publicKey.export({ type: "spki", format: "pem" }).toString();
  const enode = enodeUrl(secp256k1Pem(), "10.0.0.7", 30303);
  const ext: { org: number; orderer: number; besu: number } = { org: 0, orderer: 0, besu: 0 };
  const put = (url: string, payload: object) =>
    b.t.app.inject({ method: "PUT", url: `/api/v1${url}`, headers: b.t.admin, payload });

  beforeAll(async () => {
    [a, b] = await Promise.all([bootConsole(d, "1"), bootConsole(d, "1")]);
    const jwt = (await a.api("POST", "/node/generate-invitation", { bidirectional: true })).json().invitation_jwt;
    expect((await b.api("POST", "/node/accept-invitation", { invitation_jwt: jwt })).statusCode).toBe(200);
    const created = await a.api("POST", "/organizations", { mspId: "ExtOrgAMSP", name: "Ext Org A" });
    expect(created.statusCode, created.body).toBe(201);
    org = created.json();
    const insert = (name: string, nodeType: "FABRIC_ORDERER" | "BESU_FULLNODE", deployment: object) =>
      insertNodeRow(a.t, { name, nodeType, deployment, organizationId: org.id });
    await insert("ext-orderer0", "FABRIC_ORDERER", {
      kind: "fabric",
      role: "orderer",
      version: "3.1.0",
      mspId: "ExtOrgAMSP",
      organizationId: org.id,
      externalEndpoint: ordererEndpoint,
      adminAddress: "0.0.0.0:9443",
      signCert: org.signCertificate,
      tlsCert: org.tlsCertificate,
      signCaCert: org.signCertificate,
      tlsCaCert: org.tlsCertificate,
      ports: [],
    });
    await insert("ext-besu0", "BESU_FULLNODE", {
      kind: "besu",
      enodeUrl: enode,
      keyFile: "/secret/key",
      props: { externalIp: "10.0.0.7", p2pPort: 30303, rpcPort: 8545, metricsEnabled: false, metricsPort: 9545 },
    });
    const sync = await b.api("POST", "/node/sync-external-nodes", { peer_node_id: a.id.nodeId });
    expect(sync.statusCode, sync.body).toBe(200);
    ext.org = ((await b.api("GET", "/external-nodes/fabric-organizations")).json() as Json[])[0]?.id;
    ext.orderer = ((await b.api("GET", "/external-nodes/fabric-orderers")).json() as Json[])[0]?.id;
    ext.besu = ((await b.api("GET", "/external-nodes/besu-nodes")).json() as Json[])[0]?.id;
    expect(ext.org && ext.orderer && ext.besu).toBeTruthy();
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.t.close(), b?.t.close()]);
  });

  it("resolves add_org by external organization to the same operation as A's certificates given by hand", async () => {
    const refs = createExternalRefs(createExternalNodesRepo(b.t.database.db));
    const explicit = {
      type: "add_org" as const,
      payload: { msp_id: "ExtOrgAMSP", root_certs: [org.signCertificate], tls_root_certs: [org.tlsCertificate] },
    };
    const removal = { type: "remove_org" as const, payload: { msp_id: "Other" } };
    expect(
      await refs.resolveOperations([
        { type: "add_org", payload: { external_organization_id: ext.org } },
        removal,
        explicit,
      ]),
    ).toEqual([explicit, removal, explicit]);
    // An orderer org gets its synced orderers' endpoints unless they are given.
    const [orderer, given] = await refs.resolveOperations([
      { type: "add_orderer_org", payload: { external_organization_id: ext.org } },
      { type: "add_orderer_org", payload: { external_organization_id: ext.org, orderer_endpoints: ["o:7050"] } },
    ]);
    expect(orderer).toEqual({
      type: "add_orderer_org",
      payload: { ...explicit.payload, orderer_endpoints: [ordererEndpoint] },
    });
    expect(given?.payload).toMatchObject({ orderer_endpoints: ["o:7050"] });
  });

  it("answers update-config with an unknown external organization with a 404 naming the field", async () => {
    const net = await insertNetworkRow(b.t, `extnet-${d}`);
    const res = await b.api("POST", `/networks/fabric/${net.id}/update-config`, {
      operations: [
        { type: "remove_org", payload: { msp_id: "X" } },
        { type: "add_org", payload: { external_organization_id: 999_999 } },
      ],
    });
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json().message).toMatch(/^body\.operations\[1\]\.payload\.external_organization_id: /);
    const mixed = await b.api("POST", `/networks/fabric/${net.id}/update-config`, {
      operations: [{ type: "add_org", payload: { external_organization_id: ext.org, msp_id: "X" } }],
    });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json().message).toMatch(/^body\.operations\.0\.payload\.msp_id: /);
  });

  it("imports through an external orderer: its endpoint and TLS CA come from the synced record", async () => {
    const mine = await b.api("POST", "/organizations", { mspId: "ExtOrgBMSP", name: "Ext Org B" });
    expect(mine.statusCode, mine.body).toBe(201);
    const body = { channelId: "extchannel", organizationId: mine.json().id };
    const unknown = await b.api("POST", "/networks/fabric/import-with-org", { ...body, externalOrdererId: 999_999 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toMatch(/^externalOrdererId: no external orderer/);
    const both = await b.api("POST", "/networks/fabric/import-with-org", {
      ...body,
      externalOrdererId: ext.orderer,
      ordererUrl: "x:1",
    });
    expect(both.statusCode).toBe(400);
    expect(both.json().message).toMatch(/^externalOrdererId: give either/);
    const neither = await b.api("POST", "/networks/fabric/import-with-org", body);
    expect(neither.statusCode).toBe(400);
    expect(neither.json().message).toMatch(/^ordererUrl: required/);
    // Nothing listens there: the failure names the orderer it dialled, the external one.
    const res = await b.api("POST", "/networks/fabric/import-with-org", { ...body, externalOrdererId: ext.orderer });
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toContain(`from orderer ${ordererEndpoint}`);
    expect((await b.api("GET", "/networks/fabric")).json().networks ?? []).not.toContainEqual(
      expect.objectContaining({ name: "extchannel" }),
    );
  });

  it("uses external Besu nodes as bootnodes, deduplicated, on the node's command line", async () => {
    const key = (await b.api("POST", "/keys", { name: "ext-besu-key", algorithm: "EC", curve: "secp256k1" })).json();
    const v = (await b.api("POST", "/keys", { name: "ext-besu-val", algorithm: "EC", curve: "secp256k1" })).json();
    const net = await b.api("POST", "/networks/besu", {
      name: `ext-qbft-${d}`,
      config: { chainId: 4322, initialValidatorsKeyIds: [v.id] },
    });
    expect(net.statusCode, net.body).toBe(200);
    // The console checks that a new node's ports are free on this machine.
    const ports = await reservePorts(2);
    const besuNode = (over: object) => ({
      name: "ext-besu-1",
      blockchainPlatform: "BESU",
      besuNode: {
        networkId: net.json().id,
        keyId: key.id,
        externalIp: "127.0.0.1",
        internalIp: "127.0.0.1",
        p2pHost: "127.0.0.1",
        p2pPort: ports,
        rpcHost: "127.0.0.1",
        rpcPort: ports + 1,
        metricsEnabled: false,
        ...over,
      },
    });
    const unknown = await b.api("POST", "/nodes?start=false", besuNode({ externalBootnodeIds: [ext.besu, 999_999] }));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toMatch(/^besuNode\.externalBootnodeIds\[1\]: no external Besu node/);

    const other = enodeUrl(secp256k1Pem(), "10.0.0.8", 30303);
    const res = await b.api(
      "POST",
      "/nodes?start=false",
      besuNode({ bootNodes: [other, enode], externalBootnodeIds: [ext.besu] }),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().besuNode.bootNodes).toEqual([other, enode]);
    const argsOf = async (id: number): Promise<string[]> => {
      const row = await b.t.database.db
        .selectFrom("nodes")
        .select("deployment")
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      return (JSON.parse(row.deployment) as { args: string[] }).args;
    };
    expect((await argsOf(res.json().id)).filter((x) => x.includes("enode://"))).toEqual([
      expect.stringMatching(/^--bootnodes=/),
    ]);
    expect((await argsOf(res.json().id)).join(" ")).toContain(enode);

    // An update with only the ids adds them to the bootnodes the node has.
    const plain = await put(`/nodes/${res.json().id}`, { besuNode: { bootnodes: [other] } });
    expect(plain.statusCode, plain.body).toBe(200);
    expect((await argsOf(res.json().id)).join(" ")).not.toContain(enode);
    const upd = await put(`/nodes/${res.json().id}`, { besuNode: { externalBootnodeIds: [ext.besu] } });
    expect(upd.statusCode, upd.body).toBe(200);
    expect(upd.json().besuNode.bootNodes).toEqual([other, enode]);
    expect((await argsOf(res.json().id)).join(" ")).toContain(enode);
    expect((await b.api("DELETE", `/nodes/${res.json().id}`)).statusCode).toBe(204);
  });
});
