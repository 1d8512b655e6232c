import { common } from "@hyperledger/fabric-protos";
import { afterAll, describe, expect, it } from "vitest";
import { fabricApi, haveFabricBinaries, waitFor, type FabricApi, type Json } from "../../test-support/fabric-api.js";

/**
 * Importing existing channels on real Fabric nodes: a channel made on this console is "forgotten"
 * (record deleted, nodes keep it), then imported back from its orderer (import-with-org) and
 * from a later config block (import, which fetches block 0 for the peers); after each import a
 * peer that was not in the channel yet joins it and catches up. Skipped without binaries.
 */
const bins = await haveFabricBinaries("fabric import e2e");
let harness: FabricApi | undefined;

afterAll(() => harness?.close());

const blockNumber = (b64: string): number =>
  common.Block.deserializeBinary(Buffer.from(b64, "base64")).getHeader()?.getNumber() ?? -1;

describe("Fabric network import", () => {
  it.skipIf(!bins)(
    "imports a channel from its orderer and from a config block; new peers join",
    { timeout: 240_000 },
    async () => {
      const h = await fabricApi();
      harness = h;
      const heights = async (id: number): Promise<Json[]> => (await h.ok("GET", `/networks/fabric/${id}/map`)).nodes;
      const t: Record<string, number> = {};
      const t0 = Date.now();
      const org = await h.ok("POST", "/organizations", { mspId: "ImpOrg1MSP", name: "Import Org 1" });
      const nodes = await h.createNodes(org, 3, 1, "imp-");
      const peers = nodes.filter((n) => n.nodeType === "FABRIC_PEER");
      const orderer = nodes.find((n) => n.nodeType === "FABRIC_ORDERER");
      t.nodesRunning = Date.now() - t0;

      // The channel, with the orderer and the first peer only.
      const net = await h.ok("POST", "/networks/fabric", {
        name: "impchannel",
        config: {
          peerOrganizations: [{ id: org.id, nodeIds: [peers[0].id] }],
          ordererOrganizations: [{ id: org.id, nodeIds: [orderer.id] }],
          batchTimeout: "1s",
        },
        joinNodes: true,
      });
      await waitFor(
        "orderer and first peer joined",
        async () => {
          const m = (await h.ok("GET", `/networks/fabric/${net.id}/nodes`)).nodes;
          return m.every((x: Json) => x.status === "joined") ? m : undefined;
        },
        60_000,
      );
      await h.ok("POST", `/networks/fabric/${net.id}/update-config`, {
        operations: [{ type: "update_batch_timeout", payload: { timeout: "2s" } }],
      });
      t.channel = Date.now() - t0;

      // Forget it: the record goes, the nodes keep the channel.
      await h.ok("DELETE", `/networks/fabric/${net.id}`);

      const importBody = {
        channelId: "impchannel",
        description: "from the orderer",
        ordererUrl: `grpcs://${orderer.fabricOrderer.externalEndpoint}`,
        ordererTlsCert: org.tlsCertificate,
        organizationId: org.id,
      };
      // Named failures first.
      const badCa = await h.call("POST", "/networks/fabric/import-with-org", {
        ...importBody,
        ordererTlsCert: org.signCertificate,
      });
      expect(badCa.status, JSON.stringify(badCa.body)).toBe(400);
      expect(badCa.body.message).toMatch(/^ordererTlsCert: /);
      const port = (orderer.fabricOrderer.externalEndpoint as string).split(":")[1];
      const wrongHost = await h.call("POST", "/networks/fabric/import-with-org", {
        ...importBody,
        ordererUrl: `127.0.0.2:${port}`,
      });
      expect(wrongHost.status, JSON.stringify(wrongHost.body)).toBe(400);
      expect(wrongHost.body.message).toMatch(
        /^ordererUrl: the orderer's TLS certificate is not issued for this address/,
      );
      const noChannel = await h.call("POST", "/networks/fabric/import-with-org", {
        ...importBody,
        channelId: "nochan",
      });
      expect(noChannel.status, JSON.stringify(noChannel.body)).toBe(400);
      expect(noChannel.body.message).toMatch(/^channelId: .*has no channel 'nochan'/);
      const other = await h.ok("POST", "/organizations", { mspId: "OutsiderMSP", name: "Outsider" });
      const outsider = await h.call("POST", "/networks/fabric/import-with-org", {
        ...importBody,
        organizationId: other.id,
      });
      expect(outsider.status, JSON.stringify(outsider.body)).toBe(400);
      expect(outsider.body.message).toMatch(/^organizationId: /);
      expect((await h.ok("GET", "/networks/fabric")).total).toBe(0);

      // import-with-org: block 0 from the orderer; org lists matched by MSP id.
      const tImport = Date.now();
      const imp = await h.ok("POST", "/networks/fabric/import-with-org", importBody);
      expect(imp).toMatchObject({ networkId: expect.any(Number), message: expect.stringContaining("impchannel") });
      t.importWithOrg = Date.now() - tImport;
      const rec = await h.ok("GET", `/networks/fabric/${imp.networkId}`);
      expect(rec).toMatchObject({ name: "impchannel", status: "imported", description: "from the orderer" });
      expect(blockNumber(rec.genesisBlock)).toBe(0);
      const stored = JSON.parse(Buffer.from(rec.config, "base64").toString());
      expect(stored.consensusType).toBe("etcdraft");
      expect(stored.peerOrganizations).toEqual([{ id: org.id, nodeIds: [] }]);
      expect(stored.ordererOrganizations).toEqual([{ id: org.id, nodeIds: [] }]);
      expect((await h.call("POST", "/networks/fabric/import-with-org", importBody)).status).toBe(409);

      // The second peer joins the imported channel and catches up (height 2).
      // The orderer already has the channel: adding it records it as joined.
      await h.ok("POST", `/networks/fabric/${imp.networkId}/nodes`, { nodeId: orderer.id, role: "orderer" });
      const members = (await h.ok("GET", `/networks/fabric/${imp.networkId}/nodes`)).nodes;
      expect(members.map((m: Json) => [m.nodeId, m.status])).toEqual([[orderer.id, "joined"]]);
      await h.ok("POST", `/networks/fabric/${imp.networkId}/nodes`, { nodeId: peers[1].id, role: "peer" });
      await h.ok("POST", `/networks/fabric/${imp.networkId}/peers/${peers[1].id}/join`);
      await waitFor(
        "the new peer at the orderer's height",
        async () => {
          const m = await heights(imp.networkId);
          return m.length === 2 && m.every((n: Json) => n.height === 2) ? m : undefined;
        },
        30_000,
      );
      const cur = (await h.ok("GET", `/networks/fabric/${imp.networkId}/current-channel-config`)).config;
      expect(cur.channel_group.groups.Orderer.values.BatchTimeout.value).toMatchObject({ timeout: "2s" });
      await h.ok("DELETE", `/networks/fabric/${imp.networkId}`);

      // import: from config block 1 (base64 of its bytes); block 0 is fetched for the peers.
      const newest = await h.call("POST", "/networks/fabric/import", { genesisFile: "not a block" });
      expect(newest.status).toBe(400);
      expect(newest.body.message).toMatch(/^genesisFile: /);
      const notConfig = await h.call("POST", "/networks/fabric/import", {
        genesisFile: Buffer.from("just some bytes").toString("base64"),
      });
      expect(notConfig.status).toBe(400);
      expect(notConfig.body.message).toMatch(/^genesisFile: /);

      // From block 0 as handed over (the bytes of the first import's genesis block).
      const fromGenesis = await h.ok("POST", "/networks/fabric/import", { genesisFile: rec.genesisBlock });
      expect((await h.ok("GET", `/networks/fabric/${fromGenesis.networkId}`)).genesisBlock).toBe(rec.genesisBlock);
      await h.ok("DELETE", `/networks/fabric/${fromGenesis.networkId}`);

      // From a later config block: the same config renumbered as block 1 (the API has no raw block
      // download to take block 1 from); the service must fetch the real block 0 from the orderer.
      const later = common.Block.deserializeBinary(Buffer.from(rec.genesisBlock, "base64"));
      later.getHeader()?.setNumber(1);
      const raw = Buffer.from(later.serializeBinary()).toString("base64");
      const imp2 = await h.ok("POST", "/networks/fabric/import", { genesisFile: raw, description: "from block 1" });
      expect(imp2.message).not.toMatch(/could not be fetched/);
      const rec2 = await h.ok("GET", `/networks/fabric/${imp2.networkId}`);
      expect(rec2).toMatchObject({ name: "impchannel", status: "imported" });
      expect(blockNumber(rec2.genesisBlock)).toBe(0);
      await h.ok("POST", `/networks/fabric/${imp2.networkId}/nodes`, { nodeId: peers[2].id, role: "peer" });
      await h.ok("POST", `/networks/fabric/${imp2.networkId}/peers/${peers[2].id}/join`);
      const ch = await waitFor(
        "the third peer reports the channel at height 2",
        async () => {
          const r = await h.ok("GET", `/nodes/${peers[2].id}/channels/impchannel/height`);
          return r.height === 2 ? r : undefined;
        },
        30_000,
      );
      expect(ch.channelId).toBe("impchannel");

      // Unjoin: the peer is stopped, `peer node unjoin` removes the channel from its ledger, and it runs again.
      const tUnjoin = Date.now();
      await h.ok("POST", `/networks/fabric/${imp2.networkId}/peers/${peers[2].id}/unjoin`);
      t.peerUnjoin = Date.now() - tUnjoin;
      const after = (await h.ok("GET", `/networks/fabric/${imp2.networkId}/nodes`)).nodes;
      expect(after.find((m: Json) => m.nodeId === peers[2].id).status).toBe("unjoined");
      expect((await h.ok("GET", `/nodes/${peers[2].id}`)).status).toBe("RUNNING");
      const left = await waitFor(
        "the unjoined peer answers without the channel",
        async () => (await h.ok("GET", `/nodes/${peers[2].id}/channels`)).channels,
        30_000,
      );
      expect(left.map((c: Json) => c.name)).not.toContain("impchannel");
      expect((await h.call("POST", `/networks/fabric/${imp2.networkId}/peers/${peers[2].id}/unjoin`)).status).toBe(400);
      // It can join again (from block 0) and catches up.
      await h.ok("POST", `/networks/fabric/${imp2.networkId}/peers/${peers[2].id}/join`);
      await waitFor(
        "the re-joined peer at height 2",
        async () => {
          const r = await h.ok("GET", `/nodes/${peers[2].id}/channels/impchannel/height`);
          return r.height === 2 ? r : undefined;
        },
        30_000,
      );

      console.warn(`fabric import e2e timings (ms): ${JSON.stringify(t)}`);
      await h.stopNodes(nodes);
    },
  );
});
