import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  E2E_FABRIC_VERSION as VERSION,
  fabricApi,
  haveFabricBinaries,
  type FabricApi,
  type Json,
} from "../../test-support/fabric-api.js";

const here = dirname(fileURLToPath(import.meta.url));
const ASSET_NODE = resolve(here, "../../fabric/test-support/chaincode/asset-node");

/**
 * Lifecycle steps that are retried or meet an orderer without a Raft leader, on real binaries: one
 * peer org and one Raft orderer. An approve sent right after the orderer restarts waits for the
 * leader and succeeds; approving or committing again answers success with "already"; an approval
 * that replaces the org's earlier one names what changed; a definition that differs from the
 * committed sequence is a 409 naming the difference; an invoke right after an orderer restart
 * succeeds; every step leaves one completed timeline entry.
 */
const bins = await haveFabricBinaries("lifecycle restart e2e");
let harness: FabricApi | undefined;
afterAll(async () => harness?.close());

describe("idempotent lifecycle steps", () => {
  it.skipIf(!bins)(
    `approves right after an orderer restart and answers "already" for repeats (Fabric ${VERSION})`,
    { timeout: 600_000 },
    async () => {
      const h = await fabricApi();
      harness = h;
      const { peer, orderer, net } = await h.peerOrdererChannel({ code: "Lc", prefix: "lc", channel: "lcchannel" });
      const cc = (await h.ok("POST", "/sc/fabric/chaincodes", { name: "lcasset", network_id: net.id })).chaincode;
      const def = (
        await h.ok("POST", `/sc/fabric/chaincodes/${cc.id}/definitions`, {
          version: "1.0",
          sequence: 1,
          endorsement_policy: "OR('LcOrg1MSP.peer')",
          source_path: ASSET_NODE,
        })
      ).definition;
      await h.ok("POST", `/sc/fabric/definitions/${def.id}/install`, { peer_ids: [peer.id] });

      // The orderer restarts; the approve goes out at once and waits for the Raft leader.
      const t0 = Date.now();
      await h.ok("POST", `/nodes/${orderer.id}/restart`);
      const restarted = Date.now() - t0;
      const first = await h.call("POST", `/sc/fabric/definitions/${def.id}/approve`, { peer_id: peer.id });
      console.log(`orderer restart ${restarted} ms; approve right after it ${Date.now() - t0 - restarted} ms`);
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(first.body).toMatchObject({ status: "success", msp_id: "LcOrg1MSP" });
      expect(first.body.transaction_id).toMatch(/^[0-9a-f]{64}$/);

      const again = await h.ok("POST", `/sc/fabric/definitions/${def.id}/approve`, { peer_id: peer.id });
      expect(again).toMatchObject({ status: "success", already: "approved" });
      expect(again.message).toMatch(/already approved for LcOrg1MSP/);
      expect(again.transaction_id).toBeUndefined();

      // Changed before the commit: the new approval replaces the org's earlier one and says what changed.
      await h.ok("PUT", `/sc/fabric/definitions/${def.id}`, {
        version: "1.1",
        sequence: 1,
        endorsement_policy: "OR('LcOrg1MSP.peer')",
      });
      await h.ok("POST", `/sc/fabric/definitions/${def.id}/install`, { peer_ids: [peer.id] });
      const replaced = await h.ok("POST", `/sc/fabric/definitions/${def.id}/approve`, { peer_id: peer.id });
      expect(replaced.message).toMatch(
        /replacing its approval of sequence 1 that differed in: version \(1\.0 → 1\.1\)/,
      );

      const commit = await h.ok("POST", `/sc/fabric/definitions/${def.id}/commit`, { peer_id: peer.id });
      expect(commit.transaction_id).toMatch(/^[0-9a-f]{64}$/);
      const recommit = await h.ok("POST", `/sc/fabric/definitions/${def.id}/commit`, { peer_id: peer.id });
      expect(recommit).toMatchObject({ status: "success", already: "committed" });
      const reapprove = await h.ok("POST", `/sc/fabric/definitions/${def.id}/approve`, { peer_id: peer.id });
      expect(reapprove.already).toBe("approved");

      // An invoke right after another orderer restart: the Gateway's submit waits for the leader too.
      await h.ok("POST", `/sc/fabric/definitions/${def.id}/deploy`, {});
      const t1 = Date.now();
      await h.ok("POST", `/nodes/${orderer.id}/restart`);
      const invoked = await h.call("POST", `/sc/fabric/chaincodes/${cc.id}/invoke`, {
        function: "CreateAsset",
        args: ["r1", "after-restart"],
      });
      console.log(`invoke right after an orderer restart: ${Date.now() - t1} ms`);
      expect(invoked.status, JSON.stringify(invoked.body)).toBe(200);
      expect(invoked.body.result).toEqual({ id: "r1", value: "after-restart" });
      await h.ok("POST", `/sc/fabric/definitions/${def.id}/undeploy`, {});

      // A row that no longer matches what the channel committed at its sequence (as if edited elsewhere).
      await h.t.database.db
        .updateTable("fabric_chaincode_definitions")
        .set({ version: "9" })
        .where("id", "=", def.id)
        .execute();
      const differs = await h.call("POST", `/sc/fabric/definitions/${def.id}/commit`, { peer_id: peer.id });
      expect(differs.status, JSON.stringify(differs.body)).toBe(409);
      expect(differs.body.message).toMatch(/with other parameters than definition \d+: version \(1\.1 → 9\)/);
      const differsApprove = await h.call("POST", `/sc/fabric/definitions/${def.id}/approve`, { peer_id: peer.id });
      expect(differsApprove.status, JSON.stringify(differsApprove.body)).toBe(409);
      expect(differsApprove.body.message).toMatch(/version \(1\.1 → 9\)/);

      const timeline: Json[] = await h.ok("GET", `/sc/fabric/definitions/${def.id}/timeline`);
      const steps = timeline
        .filter((e) => e.event_type !== "created" && e.event_type !== "updated" && e.event_type !== "source")
        .map((e) => `${e.event_type}:${e.event_data.status}${e.event_data.already ? `:${e.event_data.already}` : ""}`);
      expect(steps).toEqual([
        "install:success",
        "approve:success",
        "approve:success:approved",
        "install:success",
        "approve:success",
        "commit:success",
        "commit:success:committed",
        "approve:success:approved",
        "build:success",
        "deploy:success",
        "undeploy:success",
        "commit:failed",
        "approve:failed",
      ]);
      for (const e of timeline.filter((x) => ["approve", "commit", "install"].includes(x.event_type))) {
        expect(e.event_data.duration_ms, JSON.stringify(e)).toEqual(expect.any(Number));
      }
    },
  );
});
