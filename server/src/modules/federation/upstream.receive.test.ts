import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildGenesisBlock } from "../../fabric/configtx/index.js";
import { configFromBlock } from "../../fabric/deliver.js";
import { storeAddOrgProposal } from "../../test-support/governance-proposal.js";
import { bootConsole, type Console } from "../../test-support/sharing.js";
import { dialects } from "../../test-support/test-app.js";
import { orgMsp, registerEachOther, signedPost } from "../../test-support/upstream.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const CHANNEL = "upchannel";

/**
 * upstream's /pro/receive* and /pro/sharing/config-proposal between two consoles registered through
 * /node/register-peer: a governance message through /pro/receive lands as the proposal the product's
 * own share makes, upstream's receive shapes reach the same receivers, and every subType is dispatched.
 */
describe.each(dialects())("upstream's receive routes (%s)", (dialect) => {
  let a: Console;
  let b: Console;
  let bOnA: number;
  let proposalId: string;
  let networkA: number;

  beforeAll(async () => {
    [a, b] = await Promise.all([bootConsole(dialect), bootConsole(dialect)]);
    bOnA = await registerEachOther(a, b);
  });
  afterAll(async () => {
    await Promise.all([a?.t.close(), b?.t.close()]);
  });

  it("a ShareConfigUpdate through /pro/receive lands as the proposal the product's own share makes", async () => {
    const orgA = await orgMsp(a, "UpAMSP");
    const orgB = await orgMsp(b, "UpBMSP");
    const orgC = await orgMsp(a, "UpCMSP");
    const block = buildGenesisBlock({
      channelId: CHANNEL,
      fabricVersion: "3.1.0",
      peerOrgs: [{ msp: orgA.msp }, { msp: orgB.msp }],
      ordererOrgs: [{ msp: orgA.msp, ordererEndpoints: ["orderer0.example.com:7050"] }],
      consensus: {
        type: "etcdraft",
        consenters: [
          {
            host: "orderer0.example.com",
            port: 7050,
            clientTlsCert: orgA.tlsCertificate,
            serverTlsCert: orgA.tlsCertificate,
          },
        ],
      },
    });
    const genesis = Buffer.from(block.serializeBinary()).toString("base64");
    const ids: number[] = [];
    for (const c of [a, b]) {
      const res = await c.api("POST", "/networks/fabric/import", { genesisFile: genesis });
      expect(res.statusCode, res.body).toBe(200);
      ids.push(res.json().networkId as number);
    }
    networkA = ids[0] as number;
    proposalId = await storeAddOrgProposal(a.t.database.db, {
      networkId: networkA,
      channel: CHANNEL,
      config: configFromBlock(block),
      add: { mspId: "UpCMSP", signCert: orgC.signCertificate, tlsCert: orgC.tlsCertificate },
    });
    const p = await a.t.database.db
      .selectFrom("governance_proposals")
      .selectAll()
      .where("id", "=", proposalId)
      .executeTakeFirstOrThrow();
    const wire = {
      proposal_id: p.id,
      channel_name: p.channel_name,
      proposal_type: p.proposal_type,
      operations: JSON.parse(p.operations_json) as unknown,
      update_b64: p.update_b64,
      config_b64: p.config_b64,
      config_sequence: p.config_sequence,
      preview_json: p.preview_json,
      created_by: p.created_by,
    };
    const res = await signedPost(a, b, "/pro/receive", {
      id: "msg-1",
      type: "DATA_EXCHANGE",
      subType: "ShareConfigUpdate",
      sender_id: a.id.nodeId,
      timestamp: Math.floor(Date.now() / 1000),
      nonce: "n1",
      payload: Buffer.from(JSON.stringify(wire)).toString("base64"),
      unknown: null,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true });
    const onB = (await b.api("GET", "/pro/networks/proposals")).json().proposals as Json[];
    expect(onB).toHaveLength(1);
    expect(onB[0]).toMatchObject({ channel_name: CHANNEL, origin_node_id: a.id.nodeId, status: "pending" });
    expect(onB[0]?.network_id).toBe(ids[1]);

    // The product's own share of the same proposal, and upstream's /pro/sharing/config-proposal, land on it.
    const own = await a.api("POST", `/pro/networks/proposals/${proposalId}/share`, { connection_id: bOnA });
    expect(own.statusCode, own.body).toBe(200);
    const viaUpstream = await a.api("POST", "/pro/sharing/config-proposal", {
      proposalId,
      channelName: CHANNEL,
      configUpdate: [...Buffer.from(p.update_b64, "base64")],
      recipients: [bOnA],
      metadata: null,
      expiresAt: "0001-01-01T00:00:00Z",
    });
    expect(viaUpstream.statusCode, viaUpstream.body).toBe(201);
    expect(viaUpstream.json()).toMatchObject({ proposalId, status: "sent", configUpdate: p.update_b64 });
    const after = (await b.api("GET", "/pro/networks/proposals")).json().proposals as Json[];
    expect(after.map((x) => x.id)).toEqual([onB[0]?.id]);
  });

  it("refuses a config-proposal share whose channel or bytes are not the proposal's, naming the field", async () => {
    const wrongChannel = await a.api("POST", "/pro/sharing/config-proposal", {
      proposalId,
      channelName: "other",
      recipients: [bOnA],
    });
    expect(wrongChannel.statusCode).toBe(400);
    expect(wrongChannel.json().message).toMatch(/^body\.channelName: /);
    const wrongBytes = await a.api("POST", "/pro/sharing/config-proposal", {
      proposalId,
      configUpdate: "AAEC",
      recipients: [bOnA],
    });
    expect(wrongBytes.statusCode).toBe(400);
    expect(wrongBytes.json().message).toMatch(/^body\.configUpdate: /);
    const unknown = await a.api("POST", "/pro/sharing/config-proposal", { proposalId: "nope", recipients: [bOnA] });
    expect(unknown.statusCode).toBe(404);
    const noPeer = await a.api("POST", "/pro/sharing/config-proposal", { proposalId, recipients: [999] });
    expect(noPeer.statusCode).toBe(400);
    expect(noPeer.json().message).toMatch(/^body\.recipients\[0\]: /);
  });

  it("receives networks and keys in upstream's shapes through the same receivers", async () => {
    const block = (await a.api("GET", `/networks/fabric/${networkA}`)).json() as Json;
    const net = await signedPost(a, b, "/pro/receive/network", {
      genesisBlock: block.genesisBlock,
      name: CHANNEL,
      networkId: networkA,
      peerNodeId: a.id.nodeId,
      platform: "FABRIC",
    });
    expect(net.statusCode, net.body).toBe(200);
    const shares = (await b.api("GET", "/pro/shared-networks?direction=received")).json().networks as Json[];
    expect(shares).toContainEqual(
      expect.objectContaining({ networkName: CHANNEL, status: "pending", platform: "fabric" }),
    );
    const again = await signedPost(a, b, "/pro/receive/network", {
      genesisBlock: block.genesisBlock,
      name: CHANNEL,
      networkId: networkA,
      platform: "FABRIC",
    });
    expect(again.json().data.shareId).toBe(net.json().data.shareId);

    const key = await a.api("POST", "/keys", { name: "upkey", algorithm: "EC", curve: "P-256" });
    expect(key.statusCode, key.body).toBe(201);
    const pem = (key.json() as Json).publicKey as string;
    const k1 = await signedPost(a, b, "/pro/receive/key", {
      algorithm: "EC",
      curve: "P-256",
      format: "PEM",
      name: "upkey",
      publicKey: pem,
      senderId: a.id.nodeId,
      shareId: "share-1",
      status: "active",
      keySize: null,
    });
    expect(k1.statusCode, k1.body).toBe(200);
    const k2 = await signedPost(a, b, "/pro/key/receive", {
      algorithm: "EC",
      curve: "P-256",
      name: "upkey2",
      public_key: pem,
      share_id: "share-2",
      shared_by: 7,
    });
    expect(k2.statusCode, k2.body).toBe(200);
    expect(k2.json()).toMatchObject({ success: true });
    const keys = (await b.api("GET", "/pro/keys/shared-with-me")).json().keys as Json[];
    expect(keys.map((k) => k.name).sort()).toEqual(["upkey", "upkey2"]);
    const priv = await signedPost(a, b, "/pro/receive/key", {
      algorithm: "EC",
      name: "bad",
      publicKey: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----",
      shareId: "share-3",
    });
    expect(priv.statusCode).toBe(400);
  });
  it("dispatches /pro/receive by subType to the sharing and governance receivers", async () => {
    const key = await a.api("POST", "/keys", { name: "msgkey", algorithm: "EC", curve: "secp256k1" });
    expect(key.statusCode, key.body).toBe(201);
    const k = key.json() as Json;
    const keyWire = {
      shareId: "6f1c5d1e-8a43-4d3e-9a55-0b8f7f1e2a10",
      keyId: String(k.id),
      name: "msgkey",
      algorithm: "EC",
      curve: "secp256k1",
      keySize: null,
      format: "PEM",
      publicKey: k.publicKey,
      ethereumAddress: k.ethereumAddress,
      sharedBy: "admin",
      // Go-shaped: a nil map, and a field this console does not know.
      metadata: null,
      goField: 1,
    };
    // The payload as the reference file types []byte: an array of byte values.
    const viaBytes = await signedPost(a, b, "/pro/receive", {
      subType: "ShareKey",
      type: "DATA_EXCHANGE",
      payload: [...Buffer.from(JSON.stringify(keyWire))],
    });
    expect(viaBytes.statusCode, viaBytes.body).toBe(200);
    const keys = (await b.api("GET", "/pro/keys/shared-with-me")).json().keys as Json[];
    expect(keys).toContainEqual(expect.objectContaining({ name: "msgkey", shared_by_node_id: a.id.nodeId }));

    const block = (await a.api("GET", `/networks/fabric/${networkA}`)).json() as Json;
    const netWire = {
      shareId: "0d7c1f5e-4a43-4d3e-9a55-0b8f7f1e2a11",
      networkId: networkA,
      name: CHANNEL,
      platform: "fabric",
      genesisBlock: block.genesisBlock,
      sharedBy: "admin",
    };
    const wrongKind = await signedPost(a, b, "/pro/receive", {
      subType: "ShareBesuNetwork",
      payload: Buffer.from(JSON.stringify(netWire)).toString("base64"),
    });
    expect(wrongKind.statusCode).toBe(400);
    expect(wrongKind.json().message).toMatch(/^body\.payload\.platform: /);
    const net = await signedPost(a, b, "/pro/receive", {
      subType: "ShareNetwork",
      payload: Buffer.from(JSON.stringify(netWire)).toString("base64"),
    });
    expect(net.statusCode, net.body).toBe(200);
    const nets = (await b.api("GET", "/pro/shared-networks?direction=received")).json().networks as Json[];
    expect(nets.filter((n) => n.networkName === CHANNEL).length).toBeGreaterThanOrEqual(1);

    const badField = await signedPost(a, b, "/pro/receive", {
      subType: "ShareConfigUpdate",
      payload: Buffer.from(JSON.stringify({ proposal_id: "x" })).toString("base64"),
    });
    expect(badField.statusCode).toBe(400);
    expect(badField.json().message).toMatch(/^body\.payload\.channel_name: /);
    const noProposal = await signedPost(a, b, "/pro/receive", {
      subType: "ShareSignature",
      payload: Buffer.from(
        JSON.stringify({
          proposal_id: "unknown",
          msp_id: "UpAMSP",
          signature_header_b64: "AAAA",
          signature_b64: "AAAA",
          signed_by: "admin",
        }),
      ).toString("base64"),
    });
    expect(noProposal.statusCode).toBe(404);
    expect(noProposal.json().message).toMatch(/^body\.proposal_id: /);
    const notJson = await signedPost(a, b, "/pro/receive", { subType: "ShareKey", payload: "AAAA" });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().message).toMatch(/^body\.payload: is not JSON/);
  });

  it("refuses a config-update in upstream's shape when no node of the channel can give its config", async () => {
    const res = await signedPost(a, b, "/pro/receive/config-update", {
      channelName: CHANNEL,
      configUpdate: [1, 2, 3],
      proposalId: "up-1",
      senderId: a.id.nodeId,
      metadata: null,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/^body\.channelName: this console has no running node of channel/);
  });
});
