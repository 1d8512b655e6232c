import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { createFabricBinaryResolver } from "../../runtime/index.js";
import {
  E2E_FABRIC_VERSION as VERSION,
  fabricApi,
  haveFabricBinaries,
  type FabricApi,
  type Json,
} from "../../test-support/fabric-api.js";
import { dialects } from "../../test-support/test-app.js";

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const ASSET_NODE = resolve(here, "../../fabric/test-support/chaincode/asset-node");

/**
 * Chaincodes committed outside the console, on real binaries (one peer org, one Raft orderer):
 * Fabric's own `peer lifecycle chaincode approveformyorg` and `commit`, with the org admin's MSP
 * folder the console exports, commit three chaincodes without installing them (one with a
 * signature policy, a private data collection and init_required; one whose name was registered in
 * the console first). The committed list reads them from the peer and adopts each exactly once
 * under concurrent calls; the adopted definitions carry the committed parameters (the console's
 * own commit of one answers "already committed"); an upgrade through the console's lifecycle
 * (sequence 2: install, approve, commit, deploy) then runs and answers an invoke.
 */
const bins = await haveFabricBinaries("chaincode adoption e2e");
const harnesses: FabricApi[] = [];
const work = mkdtempSync(join(tmpdir(), "cl-cc-adopt-"));
afterAll(async () => {
  for (const h of harnesses) await h.close();
  rmSync(work, { recursive: true, force: true });
});

describe.each(dialects())("chaincodes committed outside the console (%s)", (dialect) => {
  it.skipIf(!bins)(
    `lists and adopts chaincodes the peer CLI committed, then upgrades one through the console (Fabric ${VERSION})`,
    { timeout: 600_000 },
    async () => {
      const h = await fabricApi({ dialect });
      harnesses.push(h);
      const t0 = Date.now();
      const { org, ord, peer, orderer, net } = await h.peerOrdererChannel({
        code: "Ad",
        prefix: "ad",
        channel: "adchannel",
      });
      const tChannel = Date.now() - t0;

      // The peer CLI as org 1's admin, from the MSP folder the console exports.
      const msp = await h.ok("POST", `/organizations/${org.id}/msp/export`, {});
      const ordMsp = await h.ok("POST", `/organizations/${ord.id}/msp/export`, {});
      const peerBin = (await createFabricBinaryResolver({ downloader: null }).findLocal(VERSION, ["peer"]))!;
      const nodesDir = join(h.t.config.dataDir, "nodes");
      const cfgDir = join(
        nodesDir,
        readdirSync(nodesDir).find((n) => n.startsWith("ad-peer"))!,
        "config",
      );
      const peerAddress: string = peer.fabricPeer.externalEndpoint;
      const ordererAddress: string = orderer.fabricOrderer.externalEndpoint;
      const cli = (args: string[]) =>
        run(peerBin.paths.peer!, args, {
          env: {
            ...process.env,
            FABRIC_CFG_PATH: cfgDir,
            CORE_PEER_LOCALMSPID: msp.mspId,
            CORE_PEER_MSPCONFIGPATH: msp.path,
            CORE_PEER_ADDRESS: peerAddress,
            CORE_PEER_TLS_ENABLED: "true",
            CORE_PEER_TLS_ROOTCERT_FILE: msp.tlsRootCertFile,
          },
        });
      const collections = join(work, `collections-${dialect}.json`);
      writeFileSync(
        collections,
        JSON.stringify([
          {
            name: "secret",
            policy: "OR('AdOrg1MSP.member')",
            requiredPeerCount: 0,
            maxPeerCount: 1,
            blockToLive: 10,
            memberOnlyRead: true,
            memberOnlyWrite: false,
          },
        ]),
      );
      /** approveformyorg then commit at sequence 1, nothing installed (no --package-id). */
      const commitOutside = async (name: string, extra: string[] = []) => {
        const common = [
          ...["-o", ordererAddress, "--tls", "--cafile", ordMsp.tlsRootCertFile],
          ...["--channelID", "adchannel", "--name", name, "--version", "1.0", "--sequence", "1", ...extra],
        ];
        await cli(["lifecycle", "chaincode", "approveformyorg", ...common]);
        await cli([
          "lifecycle",
          "chaincode",
          "commit",
          ...common,
          ...["--peerAddresses", peerAddress, "--tlsRootCertFiles", msp.tlsRootCertFile],
        ]);
      };
      // The "registered name" case: a record made to query and invoke a chaincode committed elsewhere.
      const registered = (await h.ok("POST", "/sc/fabric/chaincodes", { name: "extnamed", network_id: net.id }))
        .chaincode;
      const t1 = Date.now();
      await commitOutside("extasset");
      await commitOutside("extpdc", [
        ...["--signature-policy", "OR('AdOrg1MSP.member')", "--collections-config", collections, "--init-required"],
      ]);
      await commitOutside("extnamed");
      const tCli = Date.now() - t1;

      // Three reads at once: each chaincode is adopted by exactly one of them.
      const url = `/networks/fabric/${net.id}/chaincodes/committed`;
      const t2 = Date.now();
      const reads = await Promise.all([h.ok("GET", url), h.ok("GET", url), h.ok("GET", url)]);
      const tAdopt = Date.now() - t2;
      for (const r of reads) {
        expect(r).toMatchObject({
          network_id: net.id,
          channel: "adchannel",
          peer: { id: peer.id, msp_id: "AdOrg1MSP" },
        });
        expect(r.chaincodes.map((c: Json) => c.name)).toEqual(["extasset", "extnamed", "extpdc"]);
      }
      for (const name of ["extasset", "extnamed", "extpdc"]) {
        const mine = reads.map((r) => r.chaincodes.find((c: Json) => c.name === name));
        expect(
          mine.filter((c) => c.adopted_now),
          name,
        ).toHaveLength(1);
        expect(new Set(mine.map((c) => c.definition_id)).size, name).toBe(1);
        expect(
          mine.every((c) => c.origin === "adopted" && !c.error),
          JSON.stringify(mine),
        ).toBe(true);
      }
      const listed = await h.ok("GET", url);
      expect(listed.chaincodes.every((c: Json) => !c.adopted_now)).toBe(true);
      const byName = Object.fromEntries(listed.chaincodes.map((c: Json) => [c.name, c]));
      expect(byName.extasset).toMatchObject({
        version: "1.0",
        sequence: 1,
        endorsement_plugin: "escc",
        validation_plugin: "vscc",
        endorsement_policy: "/Channel/Application/Endorsement",
        init_required: false,
        collections: [],
      });
      expect(byName.extpdc).toMatchObject({
        version: "1.0",
        sequence: 1,
        endorsement_policy: "OR('AdOrg1MSP.member')",
        init_required: true,
        collections: [
          {
            name: "secret",
            policy: "OR('AdOrg1MSP.member')",
            requiredPeerCount: 0,
            maxPeerCount: 1,
            blockToLive: 10,
            memberOnlyRead: true,
            memberOnlyWrite: false,
          },
        ],
      });
      expect(byName.extnamed.chaincode_id).toBe(registered.id);

      // Exactly one record per chaincode, one definition each, marked committed outside.
      const all: Json[] = (await h.ok("GET", "/sc/fabric/chaincodes")).chaincodes;
      const ours = all.filter((c) => c.network_id === net.id);
      expect(ours.map((c) => c.name).sort()).toEqual(["extasset", "extnamed", "extpdc"]);
      for (const c of ours) {
        expect(c).toMatchObject({ definitions_count: 1, latest_definition: { sequence: 1, origin: "adopted" } });
      }
      const pdcDef = (await h.ok("GET", `/sc/fabric/chaincodes/${byName.extpdc.chaincode_id}/definitions`))
        .definitions[0];
      expect(pdcDef).toMatchObject({
        version: "1.0",
        sequence: 1,
        source_type: "none",
        origin: "adopted",
        init_required: true,
        endorsement_policy: "OR('AdOrg1MSP.member')",
      });
      const timeline: Json[] = await h.ok("GET", `/sc/fabric/definitions/${pdcDef.id}/timeline`);
      expect(timeline.map((e) => `${e.event_type}:${e.event_data.status}`)).toEqual([
        "adopted:success",
        "commit:success",
      ]);
      // The adopted parameters are the committed ones, byte for byte as _lifecycle compares them.
      const again = await h.ok("POST", `/sc/fabric/definitions/${pdcDef.id}/commit`, { peer_id: peer.id });
      expect(again).toMatchObject({ status: "success", already: "committed" });
      const status = await h.ok("GET", `/sc/fabric/definitions/${pdcDef.id}/status`);
      expect(status.committed).toMatchObject({ sequence: 1, version: "1.0" });
      expect(status.orgs).toEqual([{ msp_id: "AdOrg1MSP", approved: true }]);

      // The committed sequence runs here once its code is uploaded: the org's approval changes only the package.
      const namedDef = byName.extnamed.definition_id;
      const t4 = Date.now();
      await h.ok("POST", `/sc/fabric/definitions/${namedDef}/source`, { source_path: ASSET_NODE });
      await h.ok("POST", `/sc/fabric/definitions/${namedDef}/install`, { peer_ids: [peer.id] });
      const reapproved = await h.ok("POST", `/sc/fabric/definitions/${namedDef}/approve`, { peer_id: peer.id });
      expect(reapproved.message).toMatch(/^approved for AdOrg1MSP, replacing its approval of sequence 1 .*package_id/);
      await h.ok("POST", `/sc/fabric/definitions/${namedDef}/deploy`, {});
      const named = await h.ok("POST", `/sc/fabric/chaincodes/${registered.id}/invoke`, {
        function: "CreateAsset",
        args: ["n1", "named"],
      });
      expect(named.result).toEqual({ id: "n1", value: "named" });
      const tRunAdopted = Date.now() - t4;
      await h.ok("POST", `/sc/fabric/definitions/${namedDef}/undeploy`, {});

      // The upgrade goes through the console's lifecycle: the next sequence is 2.
      const assetId = byName.extasset.chaincode_id;
      const wrong = await h.call("POST", `/sc/fabric/chaincodes/${assetId}/definitions`, {
        version: "2.0",
        sequence: 1,
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.message).toMatch(/^sequence: .*must use sequence 2, not 1/);
      const t3 = Date.now();
      const v2 = (
        await h.ok("POST", `/sc/fabric/chaincodes/${assetId}/definitions`, {
          version: "2.0",
          sequence: 2,
          endorsement_policy: "OR('AdOrg1MSP.peer')",
          source_path: ASSET_NODE,
        })
      ).definition;
      expect(v2.origin).toBe("console");
      await h.ok("POST", `/sc/fabric/definitions/${v2.id}/install`, { peer_ids: [peer.id] });
      await h.ok("POST", `/sc/fabric/definitions/${v2.id}/approve`, { peer_id: peer.id });
      const committed = await h.ok("POST", `/sc/fabric/definitions/${v2.id}/commit`, { peer_id: peer.id });
      expect(committed.transaction_id).toMatch(/^[0-9a-f]{64}$/);
      await h.ok("POST", `/sc/fabric/definitions/${v2.id}/deploy`, {});
      const invoked = await h.ok("POST", `/sc/fabric/chaincodes/${assetId}/invoke`, {
        function: "CreateAsset",
        args: ["x1", "adopted"],
      });
      expect(invoked.result).toEqual({ id: "x1", value: "adopted" });
      const tUpgrade = Date.now() - t3;

      // The committed list now shows the console's sequence 2, and adopts nothing more.
      const after = await h.ok("GET", url);
      expect(after.chaincodes.find((c: Json) => c.name === "extasset")).toMatchObject({
        version: "2.0",
        sequence: 2,
        endorsement_policy: "OR('AdOrg1MSP.peer')",
        definition_id: v2.id,
        origin: "console",
        adopted_now: false,
      });
      const defs: Json[] = (await h.ok("GET", `/sc/fabric/chaincodes/${assetId}/definitions`)).definitions;
      expect(defs.map((d) => `${d.sequence}:${d.origin}`)).toEqual(["1:adopted", "2:console"]);
      const audit: Json[] = (await h.ok("GET", "/audit/logs?page_size=500")).items;
      const adoptions = audit.filter((e) => e.eventType === "chaincode.adopt").flatMap((e) => e.details.adopted);
      expect(adoptions.map((a: Json) => a.name).sort()).toEqual(["extasset", "extnamed", "extpdc"]);
      await h.ok("POST", `/sc/fabric/definitions/${v2.id}/undeploy`, {});
      console.log(
        `adoption e2e (${dialect}): channel ${tChannel} ms, peer CLI approve+commit x3 ${tCli} ms, 3 concurrent committed reads ${tAdopt} ms, upgrade to sequence 2 through the console (install, approve, commit, deploy, invoke) ${tUpgrade} ms, the adopted sequence 1 run here (upload, install, approve, deploy, invoke) ${tRunAdopted} ms`,
      );
    },
  );
});
