import { afterAll, describe, expect, it } from "vitest";
import { fabricApi, haveFabricBinaries, waitFor, type FabricApi, type Json } from "../../test-support/fabric-api.js";
import { listenAndSetEndpoint } from "../../test-support/federation.js";

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

/** Chain height of a channel as a console's own joined peer reports it. */
async function height(c: FabricApi, networkId: number): Promise<number> {
  const r = await c.call("GET", `/networks/fabric/${networkId}/info`);
  return r.status === 200 ? Number(r.body.height) : -1;
}

describe("federation between two consoles with a real channel", () => {
  it.skipIf(!bins)(
    "B joins A's channel through federation: sync, add org from external data, share, accept, join, catch up",
    { timeout: 300_000 },
    async () => {
      // Away from the other Fabric tests' ports (docs/testing.md): 46000-46599.
      const slot = (process.pid % 5) * 60;
      const a = await fabricApi({ ports: 46000 + slot });
      consoles.push(a);
      const b = await fabricApi({ ports: 46300 + slot });
      consoles.push(b);
      await Promise.all([listenAndSetEndpoint(a.t), listenAndSetEndpoint(b.t)]);

      const [chan, bOrg] = await Promise.all([
        a.peerOrdererChannel({ code: "FedA", prefix: "feda", channel: "fedchannel" }),
        b.ok("POST", "/organizations", { mspId: "FedBOrg1MSP", name: "Fed B Org 1" }),
      ]);
      const [bPeer] = (await b.createNodes(bOrg, 1, 0, "fedb-")) as [Json];

      // A invites, B accepts.
      const aId = (await a.ok("GET", "/node/identity")).node_id as string;
      const bId = (await b.ok("GET", "/node/identity")).node_id as string;
      const inv = await a.ok("POST", "/node/generate-invitation", { bidirectional: true });
      await b.ok("POST", "/node/accept-invitation", { invitation_jwt: inv.invitation_jwt });

      // B syncs A's nodes: A's org and orderer are external nodes on B.
      const bSync = await b.ok("POST", "/node/sync-external-nodes", { peer_node_id: aId });
      expect(bSync.organizations_added).toBeGreaterThanOrEqual(2);
      const bOrgs: Json[] = await b.ok("GET", "/external-nodes/fabric-organizations");
      expect(bOrgs.map((o) => o.mspId)).toEqual(expect.arrayContaining([chan.org.mspId, chan.ord.mspId]));
      const bOrderers: Json[] = await b.ok("GET", "/external-nodes/fabric-orderers");
      expect(bOrderers.map((o) => o.externalEndpoint)).toContain(chan.orderer.fabricOrderer.externalEndpoint);

      // A syncs B's nodes and adds B's org to the channel from that record (a config update).
      await a.ok("POST", "/node/sync-external-nodes", { peer_node_id: bId });
      const aOrgs: Json[] = await a.ok("GET", "/external-nodes/fabric-organizations");
      const external = aOrgs.find((o) => o.mspId === bOrg.mspId);
      expect(external?.signCertificate).toBe(bOrg.signCertificate);
      await a.ok("POST", `/networks/fabric/${chan.net.id}/update-config`, {
        operations: [{ type: "add_org", payload: { external_organization_id: external.id } }],
      });
      const cfg = await a.ok("GET", `/networks/fabric/${chan.net.id}/current-channel-config`);
      expect(JSON.stringify(cfg)).toContain(bOrg.mspId);

      // A shares the network with B; B has it pending and accepts it.
      const bOnA = ((await a.ok("GET", "/node/connected-peers")).connected_peers as Json[]).find(
        (p) => p.node_id === bId,
      );
      const share = await a.ok("POST", "/pro/sharing/network", { networkId: chan.net.id, recipients: [bOnA.id] });
      expect(share.status).not.toBe("failed");
      const received = ((await b.ok("GET", "/pro/shared-networks?direction=received")).networks as Json[]).find(
        (n) => n.networkName === "fedchannel",
      );
      expect(received?.status).toBe("pending");
      const accepted = await b.ok("POST", `/pro/shared-networks/${received.id}/accept`);
      const bNetId = accepted.networkId as number;
      expect((await b.ok("GET", `/networks/fabric/${bNetId}`)).name).toBe("fedchannel");

      // B's peer joins from block 0 and pulls every block from A's orderer.
      await b.ok("POST", `/networks/fabric/${bNetId}/peers/${bPeer.id}/join`);
      const target = await height(a, chan.net.id);
      expect(target).toBeGreaterThanOrEqual(3); // genesis, anchor peers, B's org
      await waitFor(
        `B's peer at A's height ${target}`,
        async () => ((await height(b, bNetId)) >= target ? true : undefined),
        90_000,
      );
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
