import { afterAll, describe, expect, it } from "vitest";
import { haveFabricBinaries, TEST_BATCH_TIMEOUT, type Json } from "../../test-support/fabric-api.js";
import { federatedFabricApi, type FederatedFabricApi } from "../../test-support/fabric-federation.js";
import { signedHeaders } from "../../test-support/federation.js";
import { bootConsole, type Console } from "../../test-support/sharing.js";

/**
 * upstream's /pro/receive/config-update on a real channel: its shape carries the update bytes but
 * not the config they were computed against, so the receiving console reads the config from its
 * running orderer. The proposal it stores counts the channel's policy and takes its orgs'
 * signatures and submits like any other. Skipped without binaries.
 */
const bins = await haveFabricBinaries("upstream config-update e2e");
let h: FederatedFabricApi | undefined;
let sender: Console | undefined;

afterAll(async () => {
  await Promise.all([h?.close(), sender?.t.close()]);
});

describe("upstream's config-update share on a real channel", () => {
  it.skipIf(!bins)(
    "stores a ShareConfigUpdate in upstream's shape against the live config; it is signed and submitted",
    { timeout: 300_000 },
    async () => {
      h = await federatedFabricApi();
      sender = await bootConsole("sqlite");
      await h.ok("POST", "/node/register-peer", { peer_public_key: sender.id.publicKey, peer_endpoint: sender.url });
      const org1 = await h.ok("POST", "/organizations", { mspId: "UpE1MSP", name: "Up E2E 1" });
      const org2 = await h.ok("POST", "/organizations", { mspId: "UpE2MSP", name: "Up E2E 2" });
      const ord = await h.ok("POST", "/organizations", { mspId: "UpEOrdMSP", name: "Up E2E Orderers" });
      const [orderer] = (await h.createNodes(ord, 0, 1, "upe-o")) as [Json];
      const net = await h.ok("POST", "/networks/fabric", {
        name: "upechannel",
        config: {
          batchTimeout: TEST_BATCH_TIMEOUT,
          peerOrganizations: [{ id: org1.id, nodeIds: [] }],
          ordererOrganizations: [{ id: ord.id, nodeIds: [orderer.id] }],
        },
      });
      await h.ok("POST", `/networks/fabric/${net.id}/orderers/${orderer.id}/join`);

      // The update bytes a proposer elsewhere would compute: here, the same library through a local proposal.
      const local = await h.ok("POST", "/pro/networks/proposals", {
        network_id: net.id,
        proposal_type: "add_org",
        operations: [
          {
            type: "add_org",
            payload: { msp_id: "UpE2MSP", root_certs: [org2.signCertificate], tls_root_certs: [org2.tlsCertificate] },
          },
        ],
      });
      const row = await h.t.database.db
        .selectFrom("governance_proposals")
        .select(["update_b64", "config_sequence"])
        .where("id", "=", local.id as string)
        .executeTakeFirstOrThrow();

      const path = "/pro/receive/config-update";
      const body = JSON.stringify({
        channelName: "upechannel",
        configUpdate: [...Buffer.from(row.update_b64, "base64")],
        proposalId: "remote-1",
        senderId: sender.id.nodeId,
        shareId: "s-1",
        metadata: { createdBy: "alice", proposalType: "add_org" },
      });
      const res = await h.t.app.inject({
        method: "POST",
        url: `/api/v1${path}`,
        headers: signedHeaders(sender.id, { to: h.nodeId, method: "POST", path, body }),
        payload: body,
      });
      expect(res.statusCode, res.body).toBe(200);
      const id = (res.json() as Json).data.proposal_id as string;
      const received = await h.ok("GET", `/pro/networks/proposals/${id}`);
      expect(received).toMatchObject({
        status: "pending",
        stale: false,
        channel_name: "upechannel",
        origin_node_id: sender.id.nodeId,
        proposal_type: "add_org",
        config_sequence: row.config_sequence,
      });
      expect(received.policy).toMatchObject({ summary: "0 of 1 orgs signed", satisfied: false });
      await h.ok("POST", `/pro/networks/proposals/${id}/sign`, { msp_id: "UpE1MSP" });
      expect((await h.ok("GET", `/pro/networks/proposals/${id}`)).policy.satisfied).toBe(true);
      const submitted = await h.ok("POST", `/pro/networks/proposals/${id}/submit`);
      expect(submitted.tx_id).toMatch(/^[0-9a-f]{64}$/);
      const cfg = (await h.ok("GET", `/networks/fabric/${net.id}/current-channel-config`)).config;
      expect(Object.keys(cfg.channel_group.groups.Application.groups).sort()).toEqual(["UpE1MSP", "UpE2MSP"]);
    },
  );
});
