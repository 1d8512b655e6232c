import { afterAll, describe, expect, it } from "vitest";
import { haveFabricBinaries, waitFor, type FabricApi, type Json } from "../../test-support/fabric-api.js";
import { channelHeight, twoConsoleChannel } from "../../test-support/fabric-federation.js";

/**
 * Issue 16's end-to-end test: two consoles on one machine, each with its own data directory, port
 * and organization, and a real channel (orderer + peer) on console A.
 * - A invites B, B accepts; B syncs A's nodes and sees A's org and orderer as external nodes.
 * - A syncs B's nodes and adds B's org to the channel from its external-organization record.
 * - A shares the network, B accepts (an import of block 0), B's peer joins and reaches A's height.
 * The steps are `twoConsoleChannel` (shared with the chaincode-proposal test); this test checks each.
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
      // Away from the other Fabric tests' ports (docs/testing.md): 46000-46599.
      const slot = (process.pid % 5) * 60;
      const { a, b, chan, bOrg, bNetId, bSync, share, target } = await twoConsoleChannel({
        ports: [46000 + slot, 46300 + slot],
        code: "Fed",
        prefix: "fed",
        channel: "fedchannel",
        consoles,
      });

      // B synced A's nodes: A's org and orderer are external nodes on B.
      expect(bSync.organizations_added).toBeGreaterThanOrEqual(2);
      const bOrgs: Json[] = await b.ok("GET", "/external-nodes/fabric-organizations");
      expect(bOrgs.map((o) => o.mspId)).toEqual(expect.arrayContaining([chan.org.mspId, chan.ord.mspId]));
      const bOrderers: Json[] = await b.ok("GET", "/external-nodes/fabric-orderers");
      expect(bOrderers.map((o) => o.externalEndpoint)).toContain(chan.orderer.fabricOrderer.externalEndpoint);

      // A added B's org to the channel from B's synced record (a config update).
      const cfg = await a.ok("GET", `/networks/fabric/${chan.net.id}/current-channel-config`);
      expect(JSON.stringify(cfg)).toContain(bOrg.mspId);

      // B accepted A's share as its own network, and its peer caught up from block 0.
      expect((await b.ok("GET", `/networks/fabric/${bNetId}`)).name).toBe("fedchannel");
      expect(target).toBeGreaterThanOrEqual(3); // genesis, anchor peers, B's org
      expect(await channelHeight(b, bNetId)).toBeGreaterThanOrEqual(target);
      // A sees the share answered.
      await waitFor(
        "A's sent share accepted",
        async () => {
          const sent = ((await a.ok("GET", "/pro/shared-networks?direction=sent")).networks as Json[]).find(
            (n) => n.id === share.shareId,
          );
          return sent?.status === "accepted" ? sent : undefined;
        },
        15_000,
      );
    },
  );
});
