import { afterAll, describe, expect, it } from "vitest";
import { haveFabricBinaries, waitFor, type FabricApi, type Json } from "../../test-support/fabric-api.js";
import {
  addOrgsFromConsoles,
  channelHeight,
  connectFabric,
  federatedFabricApi,
  shareAndJoin,
} from "../../test-support/fabric-federation.js";

/**
 * Issue 16's end-to-end test: two consoles on one machine, each with its own data directory, port
 * and organization, and a real channel (orderer + peer) on console A.
 * - A invites B, B accepts; B syncs A's nodes and sees A's org and orderer as external nodes.
 * - A syncs B's nodes and adds B's org to the channel from its external-organization record.
 * - A shares the network, B accepts (an import of block 0), B's peer joins and reaches A's height.
 * Skipped without Fabric binaries (the reason is printed).
 */
const bins = await haveFabricBinaries("federation e2e");
const consoles: FabricApi[] = [];

afterAll(async () => {
  await Promise.all(consoles.map((c) => c.close()));
});

describe("federation between two consoles with a real channel", () => {
  it.skipIf(!bins)(
    "B joins A's channel through federation: sync, add org from external data, share, accept, join, catch up",
    { timeout: 300_000 },
    async () => {
      const track = (c: FabricApi) => consoles.push(c);
      const a = await federatedFabricApi(track);
      const b = await federatedFabricApi(track);

      const [chan, bOrg] = await Promise.all([
        a.peerOrdererChannel({ code: "FedA", prefix: "feda", channel: "fedchannel" }),
        b.ok("POST", "/organizations", { mspId: "FedBOrg1MSP", name: "Fed B Org 1" }),
      ]);
      const [bPeer] = (await b.createNodes(bOrg, 1, 0, "fedb-")) as [Json];

      // A invites, B accepts.
      const { toOnFrom: bOnA } = await connectFabric(a, b);

      // B syncs A's nodes: A's org and orderer are external nodes on B.
      const bSync = await b.ok("POST", "/node/sync-external-nodes", { peer_node_id: a.nodeId });
      expect(bSync.organizations_added).toBeGreaterThanOrEqual(2);
      const bOrgs: Json[] = await b.ok("GET", "/external-nodes/fabric-organizations");
      expect(bOrgs.map((o) => o.mspId)).toEqual(expect.arrayContaining([chan.org.mspId, chan.ord.mspId]));
      const bOrderers: Json[] = await b.ok("GET", "/external-nodes/fabric-orderers");
      expect(bOrderers.map((o) => o.externalEndpoint)).toContain(chan.orderer.fabricOrderer.externalEndpoint);

      // A syncs B's nodes and adds B's org to the channel from that record (a config update).
      const [external] = await addOrgsFromConsoles(a, chan.net.id, [{ console: b, mspId: bOrg.mspId }]);
      expect(external?.signCertificate).toBe(bOrg.signCertificate);
      const cfg = await a.ok("GET", `/networks/fabric/${chan.net.id}/current-channel-config`);
      expect(JSON.stringify(cfg)).toContain(bOrg.mspId);
      expect(await channelHeight(a, chan.net.id)).toBeGreaterThanOrEqual(3); // genesis, anchor peers, B's org

      // A shares the network with B; B accepts it, its peer joins from block 0 and pulls every block.
      const joined = await shareAndJoin({
        owner: a,
        networkId: chan.net.id,
        to: b,
        toOnOwner: bOnA,
        channel: "fedchannel",
        peerIds: [bPeer.id],
      });
      expect((await b.ok("GET", `/networks/fabric/${joined.networkId}`)).name).toBe("fedchannel");
      // A sees the share answered.
      await waitFor(
        "A's sent share accepted",
        async () => {
          const sent = ((await a.ok("GET", "/pro/shared-networks?direction=sent")).networks as Json[]).find(
            (n) => n.id === joined.shareId,
          );
          return sent?.status === "accepted" ? sent : undefined;
        },
        15_000,
      );
    },
  );
});
