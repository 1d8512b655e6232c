import "reflect-metadata";
import { afterAll, describe, expect, it } from "vitest";
import {
  E2E_FABRIC_VERSION as VERSION,
  fabricApi,
  haveFabricBinaries,
  TEST_BATCH_TIMEOUT,
  type FabricApi,
  type Json,
} from "../../test-support/fabric-api.js";

/**
 * Issue 33 item 6 on real Fabric binaries: a peer whose org is not in the channel is refused when
 * it is added (no Pending row is left), this console's second org is added with
 * POST /networks/fabric/{id}/organizations (a config update signed by org1, which alone satisfies
 * MAJORITY Admins) and its peer then joins; on a channel whose policy needs an org this console
 * does not hold, the same call creates a governance proposal signed by org1. Skipped without binaries.
 */
const bins = await haveFabricBinaries("fabric channel membership e2e");
let harness: FabricApi | undefined;

afterAll(() => harness?.close());

describe("Fabric channel membership through the API", () => {
  it.skipIf(!bins)(
    `refuses a peer of a non-member org, adds the org, joins its peer; proposes when the policy needs others (Fabric ${VERSION})`,
    { timeout: 300_000 },
    async () => {
      const h = await fabricApi();
      harness = h;
      const org1 = await h.ok("POST", "/organizations", { mspId: "MemOrg1MSP", name: "Mem Org 1" });
      const org2 = await h.ok("POST", "/organizations", { mspId: "MemOrg2MSP", name: "Mem Org 2" });
      const org3 = await h.ok("POST", "/organizations", { mspId: "MemOrg3MSP", name: "Mem Org 3" });
      const nodes1 = await h.createNodes(org1, 1, 1, "m1-");
      const [peer2] = (await h.createNodes(org2, 1, 0, "m2-")) as [Json];
      const peer1 = nodes1.find((n) => n.nodeType === "FABRIC_PEER");
      const orderer = nodes1.find((n) => n.nodeType === "FABRIC_ORDERER");

      const net = await h.ok("POST", "/networks/fabric", {
        name: "memchannel",
        config: {
          batchTimeout: TEST_BATCH_TIMEOUT,
          peerOrganizations: [{ id: org1.id, nodeIds: [peer1.id] }],
          ordererOrganizations: [{ id: org1.id, nodeIds: [orderer.id] }],
        },
      });
      const id = net.id as number;
      await h.ok("POST", `/networks/fabric/${id}/orderers/${orderer.id}/join`);
      await h.ok("POST", `/networks/fabric/${id}/peers/${peer1.id}/join`);

      // org2 is not in the channel: adding its peer is refused by name and leaves no row behind.
      const refused = await h.call("POST", `/networks/fabric/${id}/nodes`, { nodeId: peer2.id, role: "peer" });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe(
        "nodeId: organization MemOrg2MSP of peer 'm2-peer0' is not a member of channel 'memchannel'; add the organization to the channel first",
      );
      const members = (await h.ok("GET", `/networks/fabric/${id}/nodes`)).nodes.map((m: Json) => m.nodeId);
      expect(members).not.toContain(peer2.id);

      // org1 holds the only application org: MAJORITY Admins is met, the update is applied.
      const added = await h.ok("POST", `/networks/fabric/${id}/organizations`, { organizationId: org2.id });
      expect(added).toMatchObject({ outcome: "applied", mspId: "MemOrg2MSP", signedBy: ["MemOrg1MSP"], missing: [] });
      expect(added.configBlockNumber).toBe(1);
      const cfg = (await h.ok("GET", `/networks/fabric/${id}/current-channel-config`)).config;
      expect(Object.keys(cfg.channel_group.groups.Application.groups).sort()).toEqual(["MemOrg1MSP", "MemOrg2MSP"]);
      const again = await h.call("POST", `/networks/fabric/${id}/organizations`, { organizationId: org2.id });
      expect(again.status).toBe(409);
      expect(again.body.message).toMatch(/^organizationId: organization MemOrg2MSP is already a member/);

      // Now its peer can be added and joined, and the peer itself reports the channel.
      await h.ok("POST", `/networks/fabric/${id}/nodes`, { nodeId: peer2.id, role: "peer" });
      await h.ok("POST", `/networks/fabric/${id}/peers/${peer2.id}/join`);
      const channels = await h.ok("GET", `/nodes/${peer2.id}/channels`);
      expect(channels.channels.map((c: Json) => c.name)).toContain("memchannel");

      // A channel of org1 and org3, then org3 leaves this console: MAJORITY of 2 needs org3 too.
      const net2 = await h.ok("POST", "/networks/fabric", {
        name: "memproposal",
        config: {
          batchTimeout: TEST_BATCH_TIMEOUT,
          peerOrganizations: [
            { id: org1.id, nodeIds: [] },
            { id: org3.id, nodeIds: [] },
          ],
          ordererOrganizations: [{ id: org1.id, nodeIds: [orderer.id] }],
        },
      });
      await h.ok("POST", `/networks/fabric/${net2.id}/orderers/${orderer.id}/join`);
      await h.ok("DELETE", `/organizations/${org3.id}`);
      const proposed = await h.ok("POST", `/networks/fabric/${net2.id}/organizations`, { organizationId: org2.id });
      expect(proposed).toMatchObject({
        outcome: "proposed",
        mspId: "MemOrg2MSP",
        signedBy: ["MemOrg1MSP"],
        missing: ["MemOrg3MSP"],
      });
      const p = await h.ok("GET", `/pro/networks/proposals/${proposed.proposalId}`);
      expect(p).toMatchObject({ status: "pending", proposal_type: "add_org", network_id: net2.id });
      expect(p.signatures.map((s: Json) => s.msp_id)).toEqual(["MemOrg1MSP"]);
      expect(p.policy).toMatchObject({ satisfied: false, missing: ["MemOrg3MSP"] });
      // Nothing reached the channel.
      const cfg2 = (await h.ok("GET", `/networks/fabric/${net2.id}/current-channel-config`)).config;
      expect(Object.keys(cfg2.channel_group.groups.Application.groups).sort()).toEqual(["MemOrg1MSP", "MemOrg3MSP"]);

      await h.stopNodes([...nodes1, peer2]);
    },
  );
});
