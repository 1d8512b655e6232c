import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { haveFabricBinaries, waitFor, type FabricApi, type Json } from "../../test-support/fabric-api.js";
import {
  addOrgsFromConsoles,
  connectFabric,
  federatedFabricApi,
  shareAndJoin,
} from "../../test-support/fabric-federation.js";

const here = dirname(fileURLToPath(import.meta.url));
const ASSET_NODE = resolve(here, "../../fabric/test-support/chaincode/asset-node");
const P = "/pro/chaincodes/proposals";

/**
 * Issue 17's chaincode proposals on real Fabric binaries, two consoles on one channel (A holds the
 * channel and orderer, B's org joined through federation). A proposes a Node.js chaincode whose
 * policy needs both orgs, accepts it itself (install, server, approve for A's org) and shares it;
 * B accepts (its own install, server and approve, ordered through the orderer its channel block
 * names); A sees both approvals, commits with endorsements from both orgs' peers (B's as a synced
 * external node) and an invoke endorsed by both succeeds. Skipped without binaries.
 */
const bins = await haveFabricBinaries("chaincode proposals e2e");
const consoles: FabricApi[] = [];

afterAll(async () => {
  await Promise.all(consoles.map((c) => c.close()));
});

describe("chaincode proposals between two consoles on a real channel", () => {
  it.skipIf(!bins)(
    "A proposes, accepts and shares; B accepts; A sees both approvals, commits, and an AND(A, B) invoke succeeds",
    { timeout: 900_000 },
    async () => {
      const track = (c: FabricApi) => consoles.push(c);
      const a = await federatedFabricApi(track);
      const b = await federatedFabricApi(track);
      const [chan, bOrg] = await Promise.all([
        a.peerOrdererChannel({ code: "CcpA", prefix: "ccpa", channel: "ccpchannel" }),
        b.ok("POST", "/organizations", { mspId: "CcpBOrg1MSP", name: "Ccp B Org 1" }),
      ]);
      const [bPeer] = (await b.createNodes(bOrg, 1, 0, "ccpb-")) as [Json];
      const { toOnFrom: bOnA } = await connectFabric(a, b);
      // Each syncs the other's nodes: B's peer is an external node on A (a commit endorser).
      await b.ok("POST", "/node/sync-external-nodes", { peer_node_id: a.nodeId });
      await addOrgsFromConsoles(a, chan.net.id, [{ console: b, mspId: bOrg.mspId }]);
      const { networkId: bNetId } = await shareAndJoin({
        owner: a,
        networkId: chan.net.id,
        to: b,
        toOnOwner: bOnA,
        channel: "ccpchannel",
        peerIds: [bPeer.id],
      });
      const policy = `AND('${chan.org.mspId}.member','${bOrg.mspId}.member')`;

      const created = await a.ok("POST", P, {
        name: "ccpasset",
        network_id: chan.net.id,
        version: "1.0",
        sequence: 1,
        endorsement_policy: policy,
      });
      await a.ok("POST", `/sc/fabric/definitions/${created.definitionId}/source`, { source_path: ASSET_NODE });
      const mine = await a.ok("POST", `${P}/${created.id}/accept`);
      expect(mine.proposal).toMatchObject({ status: "accepted", sourceType: "node" });
      expect(await a.ok("POST", `${P}/${created.id}/share`, { recipients: [bOnA] })).toEqual({ success: true });

      const onB = ((await b.ok("GET", P)) as Json[]).find((x) => x.chaincodeDefId === created.chaincodeDefId);
      expect(onB).toMatchObject({ status: "received", networkId: bNetId, endorsementPolicy: policy });
      const accepted = await b.ok("POST", `${P}/${onB.id}/accept`);
      expect(accepted.proposal).toMatchObject({ status: "accepted", error: "" });
      expect(accepted.definition).toMatchObject({ version: "1.0", sequence: 1, endorsementPolicy: policy });

      const both = await waitFor(
        "A sees both orgs' approvals",
        async () => {
          const g = await a.ok("GET", `${P}/${created.id}`);
          const ap = g.proposal.approvals as Record<string, boolean>;
          return ap[chan.org.mspId] && ap[bOrg.mspId] ? ap : undefined;
        },
        60_000,
        1000,
      );
      expect(both).toEqual({ [chan.org.mspId]: true, [bOrg.mspId]: true });

      await a.ok("POST", `/sc/fabric/definitions/${created.definitionId}/commit`, { peer_id: chan.peer.id });
      expect((await a.ok("GET", `${P}/${created.id}`)).proposal.status).toBe("committed");
      await waitFor(
        "B sees it committed",
        async () => ((await b.ok("GET", `${P}/${onB.id}`)).proposal.status === "committed" ? true : undefined),
        30_000,
        1000,
      );

      // Endorsed by A's and B's peers (the Gateway finds B's through the channel's gossip).
      const wrote = await waitFor(
        "an invoke endorsed by both orgs",
        async () => {
          const r = await a.call("POST", `/sc/fabric/chaincodes/${created.chaincodeId}/invoke`, {
            function: "CreateAsset",
            args: ["p1", "green"],
          });
          if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
          return r.body as Json;
        },
        90_000,
        3000,
      );
      expect(wrote.transaction_id).toMatch(/^[0-9a-f]{64}$/);
      const read = await waitFor(
        "B reads the asset through its own peer",
        async () => {
          const r = await b.call("POST", `/sc/fabric/chaincodes/${accepted.chaincode.id}/query`, {
            function: "ReadAsset",
            args: ["p1"],
          });
          return r.status === 200 ? (r.body as Json) : undefined;
        },
        30_000,
        1000,
      );
      expect(read.result).toMatchObject({ id: "p1", value: "green" });
    },
  );
});
