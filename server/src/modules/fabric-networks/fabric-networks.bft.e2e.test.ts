import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findTestBinaries, TEST_FABRIC_VERSION } from "../../fabric/test-support/fabric-bins.js";
import { fabricApi, fabricNodeSpec, Fatal, waitFor, type FabricApi, type Json } from "../../test-support/fabric-api.js";
import { dialects } from "../../test-support/test-app.js";

/**
 * A BFT (SmartBFT) channel through the API on real Fabric 3.x binaries: 1 org, 4 orderers (f = 1)
 * and 1 peer created with POST /nodes, the channel with POST /networks/fabric (consensusType BFT,
 * joinNodes), every member joined, the BFT consenter mapping in current-channel-config, a
 * batch-timeout update ordered by the BFT cluster, equal heights; then every node is stopped and
 * deleted through the API and no process survives. On SQLite and PostgreSQL (a run takes ~5 s).
 * Skipped without binaries or on Fabric 2.x.
 * A second case (no binaries needed) checks the named 400 for BFT on a Fabric 2.x orderer.
 */
const VERSION = TEST_FABRIC_VERSION;
const bins = VERSION.startsWith("2.")
  ? (console.warn(`fabric networks BFT e2e skipped: BFT needs Fabric 3.x, not ${VERSION}`), null)
  : await findTestBinaries(["peer", "orderer"], "fabric networks BFT e2e");
/** A version that is 2.x for the refusal case; its "binary" is a stub that is never started. */
const OLD = "2.5.14";

const harnesses: FabricApi[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.close();
});

async function appOn(opts: Parameters<typeof fabricApi>[0]): Promise<FabricApi> {
  const h = await fabricApi(opts);
  harnesses.push(h);
  return h;
}

describe.skipIf(!bins).each(dialects())(`a BFT Fabric channel through the API (Fabric ${VERSION}, %s)`, (dialect) => {
  it(
    "creates a BFT channel on 4 orderers and a peer, joins all, updates config, cleans up",
    { timeout: 180_000 },
    async () => {
      const env: Record<string, string> = process.env.CHAINLAUNCH_FABRIC_BIN_DIR
        ? { CHAINLAUNCH_FABRIC_BIN_DIR: process.env.CHAINLAUNCH_FABRIC_BIN_DIR }
        : {};
      const h = await appOn({ dialect, env, portCount: 30 });
      const { call, ok } = h;
      const times: Record<string, number> = {};
      const t0 = Date.now();
      const org = await ok("POST", "/organizations", { mspId: "BftOrg1MSP", name: "Bft Org 1" });
      const nodes: Json[] = await h.createNodes(org, 1, 4, "bft-");
      times.nodesRunning = Date.now() - t0;
      const orderers = nodes.filter((n) => n.nodeType === "FABRIC_ORDERER");
      const peers = nodes.filter((n) => n.nodeType === "FABRIC_PEER");
      expect([orderers.length, peers.length]).toEqual([4, 1]);

      const tCreate = Date.now();
      const res = await call("POST", "/networks/fabric", {
        name: "bftchannel",
        description: "BFT e2e",
        config: {
          consensusType: "BFT",
          smartBFTOptions: { requestBatchMaxCount: 50 },
          peerOrganizations: [{ id: org.id, nodeIds: peers.map((p) => p.id) }],
          ordererOrganizations: [{ id: org.id, nodeIds: orderers.map((o) => o.id) }],
        },
        joinNodes: true,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body).toMatchObject({ name: "bftchannel", platform: "FABRIC", status: "genesis_block_created" });
      const id = res.body.id as number;
      times.created = Date.now() - tCreate;

      // joinNodes joins in the background; GET .../nodes shows the progress.
      const members = await waitFor(
        "all 5 members joined",
        async () => {
          const m: Json[] = (await ok("GET", `/networks/fabric/${id}/nodes`)).nodes;
          const failed = m.find((x) => x.status === "failed");
          if (failed) throw new Fatal(`node ${failed.nodeId} failed to join: ${failed.error}`);
          return m.length === 5 && m.every((x) => x.status === "joined") ? m : undefined;
        },
        60_000,
      );
      expect(members.map((m: Json) => m.role).sort()).toEqual(["orderer", "orderer", "orderer", "orderer", "peer"]);
      times.allJoined = Date.now() - tCreate;

      const cfg = (await ok("GET", `/networks/fabric/${id}/current-channel-config`)).config;
      const ov = cfg.channel_group.groups.Orderer.values;
      expect(ov.ConsensusType.value).toMatchObject({ type: "BFT", state: "STATE_NORMAL" });
      expect(ov.ConsensusType.value.metadata.request_batch_max_count).toBe("50");
      const mapping: Json[] = ov.Orderers.value.consenter_mapping;
      expect(mapping.map((c) => c.id)).toEqual([1, 2, 3, 4]);
      expect(mapping.map((c) => `${c.host}:${c.port}`)).toEqual(orderers.map((o) => o.fabricOrderer.externalEndpoint));
      expect(mapping.every((c) => c.msp_id === "BftOrg1MSP")).toBe(true);
      expect(Object.keys(cfg.channel_group.values.Capabilities.value.capabilities)).toEqual(["V3_0"]);
      expect(ov.BatchTimeout.value).toMatchObject({ timeout: "2s" });

      await waitFor(
        "all five report the channel at height 1",
        async () => {
          const m = await ok("GET", `/networks/fabric/${id}/map`);
          return m.nodes.length === 5 && m.nodes.every((n: Json) => n.healthy && n.height === 1) ? m : undefined;
        },
        30_000,
      );

      // The service retries while the BFT cluster answers SERVICE_UNAVAILABLE right after the joins.
      const tUpdate = Date.now();
      const upd = await ok("POST", `/networks/fabric/${id}/update-config`, {
        operations: [{ type: "update_batch_timeout", payload: { timeout: "1s" } }],
      });
      expect(upd).toMatchObject({ status: "applied", channel_name: "bftchannel", configBlockNumber: 1 });
      times.configUpdate = Date.now() - tUpdate;
      const cur = (await ok("GET", `/networks/fabric/${id}/current-channel-config`)).config;
      expect(cur.channel_group.groups.Orderer.values.BatchTimeout.value).toMatchObject({ timeout: "1s" });
      expect(cur.channel_group.groups.Orderer.values.ConsensusType.value.type).toBe("BFT");
      const genesis = (await ok("GET", `/networks/fabric/${id}/channel-config`)).config;
      expect(genesis.channel_group.groups.Orderer.values.BatchTimeout.value).toMatchObject({ timeout: "2s" });

      const same = await waitFor(
        "the peer's height matches the 4 orderers'",
        async () => {
          const m = await ok("GET", `/networks/fabric/${id}/map`);
          return m.nodes.length === 5 && m.nodes.every((n: Json) => n.healthy && n.height === 2) ? m : undefined;
        },
        30_000,
      );
      expect(same.nodes.map((n: Json) => n.role).sort()).toEqual(["orderer", "orderer", "orderer", "orderer", "peer"]);
      const blocks = await ok("GET", `/networks/fabric/${id}/blocks?limit=10`);
      expect(blocks.blocks.map((b: Json) => [b.number, b.transactions[0].type])).toEqual([
        [1, "CONFIG"],
        [0, "CONFIG"],
      ]);
      expect(await ok("GET", `/networks/fabric/${id}/info`)).toMatchObject({
        height: 2,
        currentBlockHash: blocks.blocks[0].hash,
      });
      times.sameHeight = Date.now() - tCreate;

      // Clean up through the API: stop every node, drop the network record, delete the nodes.
      const tClean = Date.now();
      await Promise.all(nodes.map((n) => ok("POST", `/nodes/${n.id}/stop`)));
      await waitFor("no node process left", async () => (h.nodeProcesses().length === 0 ? true : undefined), 30_000);
      await ok("DELETE", `/networks/fabric/${id}`);
      for (const n of nodes) expect((await call("DELETE", `/nodes/${n.id}`)).status).toBe(204);
      expect((await ok("GET", "/nodes")).total).toBe(0);
      expect(h.nodeProcesses()).toEqual([]);
      times.cleanedUp = Date.now() - tClean;
      times.total = Date.now() - t0;
      console.warn(`fabric networks BFT e2e timings on ${dialect} (ms): ${JSON.stringify(times)}`);
    },
  );
});

describe.each(dialects())("BFT on Fabric 2.x (%s)", (dialect) => {
  it("is a named 400 on config.consensusType, checked before the orderer must be running", async () => {
    // A configured bin dir with `{version}` holds a stub `orderer` for 2.5.x, so POST /nodes can
    // record a 2.5.x orderer without a real 2.5 build; the node is never started.
    const fake = mkdtempSync(join(tmpdir(), "cl-bft-old-bins-"));
    try {
      mkdirSync(join(fake, OLD));
      writeFileSync(join(fake, OLD, "orderer"), "#!/bin/sh\necho 'stub orderer: never started' >&2\nexit 1\n");
      chmodSync(join(fake, OLD, "orderer"), 0o755);
      const h = await appOn({
        dialect,
        env: { CHAINLAUNCH_FABRIC_BIN_DIR: join(fake, "{version}") },
        portCount: 10,
      });
      const { call, ok } = h;
      const org = await ok("POST", "/organizations", { mspId: "BftOldOrgMSP", name: "Bft Old Org" });
      const d = await ok("GET", "/nodes/defaults/fabric?peerCount=0&ordererCount=1");
      const old = await ok(
        "POST",
        "/nodes?start=false",
        fabricNodeSpec(org, "orderer", d.orderers[0], "old-orderer", OLD),
      );
      expect(old.fabricOrderer.version).toBe(OLD);
      expect(old.status).not.toBe("RUNNING");

      const body = (consensusType: string) => ({
        name: "oldbft",
        config: { consensusType, ordererOrganizations: [{ id: org.id, nodeIds: [old.id] }] },
      });
      for (const consensusType of ["BFT", "smartbft"]) {
        const res = await call("POST", "/networks/fabric", body(consensusType));
        expect(res.status, JSON.stringify(res.body)).toBe(400);
        expect(res.body.message).toMatch(
          /^config\.consensusType: BFT needs Fabric 3\.x orderers; 'old-orderer' runs 2\.5\.14/,
        );
      }
      // The same orderer under raft gets past the version check and stops at the running check.
      const raft = await call("POST", "/networks/fabric", body("etcdraft"));
      expect(raft.status).toBe(400);
      expect(raft.body.message).toMatch(/nodeIds\[0\]: orderer 'old-orderer' is \w+; consenters must be RUNNING/);
      expect((await ok("GET", "/networks/fabric")).total).toBe(0);
      expect(h.nodeProcesses()).toEqual([]);
    } finally {
      rmSync(fake, { recursive: true, force: true });
    }
  });
});
