import { X509Certificate } from "node:crypto";
import "reflect-metadata";
import { X509Crl } from "@peculiar/x509";
import { afterAll, describe, expect, it } from "vitest";
import {
  E2E_FABRIC_VERSION as VERSION,
  fabricApi,
  haveFabricBinaries,
  waitFor,
  type FabricApi,
  type Json,
} from "../../test-support/fabric-api.js";

/**
 * A channel through the API on real Fabric binaries: 1 org, 3 raft orderers and 2 peers created
 * with POST /nodes, the channel with POST /networks/fabric, every node joined, anchor peers set,
 * a batch-timeout update seen in current-channel-config, config blocks in the explorer, equal
 * heights; then a second org added by an update signed by the first org's admin, and its peer
 * joins. Every node is stopped through the API and no process survives. Skipped without binaries.
 */
const bins = await haveFabricBinaries("fabric networks e2e");
let harness: FabricApi | undefined;

afterAll(() => harness?.close());

describe("Fabric networks through the API", () => {
  it.skipIf(!bins)(
    `creates a channel on 3 orderers and 2 peers, joins all, updates config, adds a second org (Fabric ${VERSION})`,
    { timeout: 300_000 },
    async () => {
      const h = await fabricApi();
      harness = h;
      const t: Record<string, number> = {};
      const t0 = Date.now();
      const org1 = await h.ok("POST", "/organizations", { mspId: "NetOrg1MSP", name: "Net Org 1" });
      const nodes = await h.createNodes(org1, 2, 3, "o1-");
      t.nodesRunning = Date.now() - t0;
      const peers = nodes.filter((n) => n.nodeType === "FABRIC_PEER");
      const orderers = nodes.filter((n) => n.nodeType === "FABRIC_ORDERER");

      const tCreate = Date.now();
      const created = await h.call("POST", "/networks/fabric", {
        name: "netchannel",
        description: "e2e",
        config: {
          peerOrganizations: [{ id: org1.id, nodeIds: peers.map((p) => p.id) }],
          ordererOrganizations: [{ id: org1.id, nodeIds: orderers.map((o) => o.id) }],
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const net = created.body;
      expect(net).toMatchObject({ name: "netchannel", platform: "FABRIC", status: "genesis_block_created" });
      const id = net.id as number;
      t.created = Date.now() - tCreate;

      await Promise.all(orderers.map((o) => h.ok("POST", `/networks/fabric/${id}/orderers/${o.id}/join`)));
      t.orderersJoined = Date.now() - tCreate;
      await Promise.all(peers.map((p) => h.ok("POST", `/networks/fabric/${id}/peers/${p.id}/join`)));
      t.allJoined = Date.now() - tCreate;
      const twice = await h.call("POST", `/networks/fabric/${id}/peers/${peers[0].id}/join`);
      expect(twice.status).toBe(400);
      expect(twice.body.message).toMatch(/already joined/);
      const members = (await h.ok("GET", `/networks/fabric/${id}/nodes`)).nodes;
      expect(members.map((m: Json) => m.status)).toEqual(["joined", "joined", "joined", "joined", "joined"]);

      // All five report the channel (heights read from each node).
      const map1 = await waitFor(
        "all five report the channel",
        async () => {
          const m = await h.ok("GET", `/networks/fabric/${id}/map`);
          return m.nodes.every((n: Json) => n.healthy && n.height >= 1) ? m : undefined;
        },
        30_000,
      );
      expect(map1.nodes).toHaveLength(5);

      // Anchor peers (retried by the service until a raft leader takes it).
      const anchors = await h.ok("POST", `/networks/fabric/${id}/anchor-peers`, {
        organizationId: org1.id,
        anchorPeers: peers.map((p) => {
          const [host, port] = (p.fabricPeer.externalEndpoint as string).split(":");
          return { host, port: Number(port) };
        }),
      });
      expect(anchors.transactionId).toMatch(/^[0-9a-f]{64}$/);
      t.anchorPeers = Date.now() - tCreate;

      const upd = await h.ok("POST", `/networks/fabric/${id}/update-config`, {
        operations: [{ type: "update_batch_timeout", payload: { timeout: "1s" } }],
      });
      expect(upd).toMatchObject({ status: "applied", channel_name: "netchannel", configBlockNumber: 2 });
      const cur = (await h.ok("GET", `/networks/fabric/${id}/current-channel-config`)).config;
      expect(cur.channel_group.groups.Orderer.values.BatchTimeout.value).toMatchObject({ timeout: "1s" });
      expect(cur.channel_group.groups.Application.groups.NetOrg1MSP.values.AnchorPeers.value.anchor_peers).toHaveLength(
        2,
      );
      const genesisCfg = (await h.ok("GET", `/networks/fabric/${id}/channel-config`)).config;
      expect(genesisCfg.channel_group.groups.Orderer.values.BatchTimeout.value).toMatchObject({ timeout: "2s" });

      const blocks = await h.ok("GET", `/networks/fabric/${id}/blocks?limit=10`);
      expect(blocks.total).toBe(3);
      expect(blocks.blocks.map((b: Json) => [b.number, b.transactions[0].type])).toEqual([
        [2, "CONFIG"],
        [1, "CONFIG"],
        [0, "CONFIG"],
      ]);
      expect(blocks.blocks[0].previousHash).toBe(blocks.blocks[1].hash);
      const b1 = await h.ok("GET", `/networks/fabric/${id}/blocks/1`);
      expect(b1.block.transactions[0]).toMatchObject({ type: "CONFIG", creatorMspId: "NetOrg1MSP" });
      expect((await h.call("GET", `/networks/fabric/${id}/blocks/99`)).status).toBe(404);

      const same = await waitFor(
        "peers' heights match the orderers'",
        async () => {
          const m = await h.ok("GET", `/networks/fabric/${id}/map`);
          return m.nodes.every((n: Json) => n.height === 3) ? m : undefined;
        },
        30_000,
      );
      expect(same.nodes.map((n: Json) => n.role).sort()).toEqual(["orderer", "orderer", "orderer", "peer", "peer"]);
      // Every member joined and running: the channel says so (it used to stay "genesis_block_created").
      expect((await h.ok("GET", `/networks/fabric/${id}`)).status).toBe("running");
      const info = await h.ok("GET", `/networks/fabric/${id}/info`);
      expect(info).toMatchObject({ height: 3, currentBlockHash: blocks.blocks[0].hash });
      t.sameHeight = Date.now() - tCreate;

      // A second org: added by an update signed by org1's admin; its peer joins.
      const tOrg2 = Date.now();
      const org2 = await h.ok("POST", "/organizations", { mspId: "NetOrg2MSP", name: "Net Org 2" });
      const [peer2] = await h.createNodes(org2, 1, 0, "o2-");
      // Before org2 is in the channel its peer is refused by name (it would "join" and then be FORBIDDEN).
      const refused = await h.call("POST", `/networks/fabric/${id}/nodes`, { nodeId: peer2.id, role: "peer" });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toMatch(/^nodeId: organization NetOrg2MSP of peer .* add the organization/);
      const early = await h.call("POST", `/networks/fabric/${id}/peers/${peer2.id}/join`);
      expect(early.status).toBe(409);
      expect(early.body.message).toMatch(/organization NetOrg2MSP of peer .* is not a member of channel 'netchannel'/);
      const add = await h.ok("POST", `/networks/fabric/${id}/update-config`, {
        operations: [
          {
            type: "add_org",
            payload: {
              msp_id: "NetOrg2MSP",
              root_certs: [org2.signCertificate],
              tls_root_certs: [org2.tlsCertificate],
            },
          },
        ],
        signing_org_ids: [org1.id],
      });
      expect(add.configBlockNumber).toBe(3);
      await h.ok("POST", `/networks/fabric/${id}/nodes`, { nodeId: peer2.id, role: "peer" });
      await h.ok("POST", `/networks/fabric/${id}/peers/${peer2.id}/join`);
      await waitFor(
        "org2's peer at height 4 like everyone",
        async () => {
          const m = await h.ok("GET", `/networks/fabric/${id}/map`);
          return m.nodes.length === 6 && m.nodes.every((n: Json) => n.height === 4) ? m : undefined;
        },
        30_000,
      );
      t.org2Joined = Date.now() - tOrg2;
      const cur2 = (await h.ok("GET", `/networks/fabric/${id}/current-channel-config`)).config;
      expect(Object.keys(cur2.channel_group.groups.Application.groups).sort()).toEqual(["NetOrg1MSP", "NetOrg2MSP"]);

      // A revoked certificate reaches the channel when the org's CRL is published there (issue 10, item 9).
      const ident = await h.ok("POST", `/organizations/${org1.id}/keys`, { name: "to-revoke", role: "client" });
      const serial = new X509Certificate(ident.certificate).serialNumber.toLowerCase();
      await h.ok("POST", `/organizations/${org1.id}/crl/revoke/serial`, { serialNumber: serial, revocationReason: 1 });
      const before = (await h.ok("GET", `/networks/fabric/${id}/current-channel-config`)).config;
      expect(before.channel_group.groups.Application.groups.NetOrg1MSP.values.MSP.value.config.revocation_list).toEqual(
        [],
      );
      await h.ok("POST", `/networks/fabric/${id}/organization-crl`, { organizationId: org1.id });
      const after = (await h.ok("GET", `/networks/fabric/${id}/current-channel-config`)).config;
      const crls = after.channel_group.groups.Application.groups.NetOrg1MSP.values.MSP.value.config.revocation_list;
      expect(crls).toHaveLength(1);
      const crlPem = Buffer.from(crls[0], "base64").toString("utf8");
      expect(new X509Crl(crlPem).entries.map((e) => e.serialNumber.toLowerCase())).toContain(serial);

      // Unjoin one orderer through osnadmin.
      await h.ok("POST", `/networks/fabric/${id}/orderers/${orderers[2].id}/unjoin`);
      expect(
        (await h.ok("GET", `/networks/fabric/${id}/nodes`)).nodes.find((m: Json) => m.nodeId === orderers[2].id).status,
      ).toBe("unjoined");

      // Each node reports the channel itself: CSCC on peers, the participation API on orderers.
      for (const n of [...peers, orderers[0]]) {
        const ch = await h.ok("GET", `/nodes/${n.id}/channels`);
        expect(ch.channels.map((c: Json) => c.name)).toContain("netchannel");
        const height = await h.ok("GET", `/nodes/${n.id}/channels/netchannel/height`);
        expect(height).toMatchObject({ channelId: "netchannel", nodeType: n.nodeType });
        expect(height.height).toBeGreaterThanOrEqual(4);
      }
      expect((await h.call("GET", `/nodes/${peers[0].id}/channels/nochannel/height`)).status).toBe(404);
      // No chaincode is committed yet: the peer's _lifecycle answers an empty list.
      expect(await h.ok("GET", `/nodes/${peers[0].id}/channels/netchannel/chaincodes`)).toEqual([]);
      expect((await h.call("GET", `/nodes/${peers[0].id}/channels/nochannel/chaincodes`)).status).toBe(404);
      expect((await h.call("GET", `/nodes/${orderers[0].id}/channels/netchannel/chaincodes`)).status).toBe(400);

      // Lookup by channel name, and taking nodes out of the network (issue 10, item 4).
      expect((await h.ok("GET", "/networks/fabric/by-name/netchannel")).id).toBe(id);
      expect((await h.call("GET", "/networks/fabric/by-name/nochannel")).status).toBe(404);
      // org2's peer has joined: it leaves the channel (stop, peer node unjoin, start) and the record.
      const removed = await h.call("DELETE", `/networks/fabric/${id}/peers/${peer2.id}`);
      expect(removed.status, JSON.stringify(removed.body)).toBe(200);
      const left = await h.ok("GET", `/nodes/${peer2.id}/channels`);
      expect(left.channels.map((c: Json) => c.name)).not.toContain("netchannel");
      // A joined orderer still in the consenter set is refused by name, and stays joined.
      const consenter = await h.call("DELETE", `/networks/fabric/${id}/orderers/${orderers[0].id}`);
      expect(consenter.status).toBe(409);
      expect(consenter.body.message).toMatch(
        /^ordererId: orderer 'o1-orderer0' .* is a consenter of channel 'netchannel'/,
      );
      expect(
        (await h.ok("GET", `/networks/fabric/${id}/nodes`)).nodes.find((m: Json) => m.nodeId === orderers[0].id).status,
      ).toBe("joined");
      // The unjoined orderer is only taken out of the record.
      await h.ok("DELETE", `/networks/fabric/${id}/orderers/${orderers[2].id}`);
      const remaining = (await h.ok("GET", `/networks/fabric/${id}/nodes`)).nodes.map((m: Json) => m.nodeId);
      expect(remaining).not.toContain(peer2.id);
      expect(remaining).not.toContain(orderers[2].id);
      expect((await h.call("DELETE", `/networks/fabric/${id}/peers/${peer2.id}`)).status).toBe(404);

      // A node joined to the channel cannot be deleted.
      const blocked = await h.call("DELETE", `/nodes/${peers[0].id}`);
      expect(blocked.status).toBe(409);
      expect(blocked.body.message).toMatch(/is still part of network/);

      console.warn(`fabric networks e2e timings (ms): ${JSON.stringify(t)}`);

      await h.stopNodes([...nodes, peer2]);
      expect((await h.ok("GET", `/networks/fabric/${id}`)).status).toBe("stopped");
    },
  );
});
