import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { createFabricBinaryResolver } from "../../runtime/index.js";
import {
  E2E_FABRIC_VERSION as VERSION,
  fabricApi,
  type FabricApi,
  haveFabricBinaries,
  type Json,
  TEST_BATCH_TIMEOUT,
  waitFor,
} from "../../test-support/fabric-api.js";

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const CHAINCODES = resolve(here, "../../fabric/test-support/chaincode");

/**
 * The chaincode lifecycle on real binaries: 2 peer orgs (a peer each) and an orderer org on one
 * channel; a Node.js and a Go chaincode (written for the tests) with AND(Org1, Org2) go through
 * install, approve by each org, commit and deploy; invoke writes and query reads back; version 2 /
 * sequence 2 changes behaviour and keeps state; kill -9 of a chaincode server heals; a console
 * restart keeps the servers running, supervised and unduplicated; Fabric's own `peer chaincode
 * query` reads the asset with an MSP folder the console exported.
 */
const bins = await haveFabricBinaries("chaincode lifecycle e2e");
let goOk = true;
try {
  await run("go", ["version"]);
} catch {
  goOk = false;
  console.warn("chaincode e2e: Go part skipped: no `go` on PATH");
}
let harness: FabricApi | undefined;
const work = mkdtempSync(join(tmpdir(), "cl-cc-e2e-"));
afterAll(async () => {
  await harness?.close();
  rmSync(work, { recursive: true, force: true });
});

/** A copy of a test chaincode with its contract version set (the v2 upgrade changes behaviour). */
function chaincodeCopy(name: "asset-node" | "asset-go", version: string): string {
  const dir = join(work, `${name}-v${version}`);
  cpSync(join(CHAINCODES, name), dir, {
    recursive: true,
    filter: (src) => !/node_modules|\/bin$/.test(src),
  });
  const file = join(dir, name === "asset-node" ? "index.js" : "main.go");
  const src = readFileSync(file, "utf8");
  const re = name === "asset-node" ? /const CONTRACT_VERSION = "1";/ : /const contractVersion = "1"/;
  expect(re.test(src), `${file} has the version line`).toBe(true);
  writeFileSync(
    file,
    src.replace(
      re,
      name === "asset-node" ? `const CONTRACT_VERSION = "${version}";` : `const contractVersion = "${version}"`,
    ),
  );
  return dir;
}

describe("Fabric chaincode lifecycle through the API", () => {
  it.skipIf(!bins)(
    `installs, approves, commits, deploys, invokes, upgrades and heals chaincode on 2 orgs (Fabric ${VERSION})`,
    { timeout: 900_000 },
    async () => {
      const h = await fabricApi();
      harness = h;
      const t0 = Date.now();
      const phase: Record<string, number> = {};
      const mark = (name: string): void => {
        phase[name] = Date.now() - t0;
      };
      const org1 = await h.ok("POST", "/organizations", { mspId: "CcOrg1MSP", name: "Cc Org 1" });
      const org2 = await h.ok("POST", "/organizations", { mspId: "CcOrg2MSP", name: "Cc Org 2" });
      const ord = await h.ok("POST", "/organizations", { mspId: "CcOrdMSP", name: "Cc Orderers" });
      const [peer1] = await h.createNodes(org1, 1, 0, "c1-");
      const [peer2] = await h.createNodes(org2, 1, 0, "c2-");
      const [orderer] = await h.createNodes(ord, 0, 1, "co-");
      mark("nodes");
      const net = await h.ok("POST", "/networks/fabric", {
        name: "ccchannel",
        config: {
          batchTimeout: TEST_BATCH_TIMEOUT,
          peerOrganizations: [
            { id: org1.id, nodeIds: [peer1.id] },
            { id: org2.id, nodeIds: [peer2.id] },
          ],
          ordererOrganizations: [{ id: ord.id, nodeIds: [orderer.id] }],
        },
      });
      await h.ok("POST", `/networks/fabric/${net.id}/orderers/${orderer.id}/join`);
      await h.ok("POST", `/networks/fabric/${net.id}/peers/${peer1.id}/join`);
      await h.ok("POST", `/networks/fabric/${net.id}/peers/${peer2.id}/join`);
      // Anchor peers: the Gateway finds the other org's peer for AND endorsements through them.
      for (const [org, peer] of [
        [org1, peer1],
        [org2, peer2],
      ] as const) {
        const [host, port] = (peer.fabricPeer.externalEndpoint as string).split(":");
        await h.ok("POST", `/networks/fabric/${net.id}/anchor-peers`, {
          organizationId: org.id,
          anchorPeers: [{ host, port: Number(port) }],
        });
      }
      mark("channel");

      /** One chaincode from nothing to its first invoke; returns its ids. */
      const lifecycle = async (
        name: string,
        source: string,
        version: string,
        sequence: number,
        ccId?: number,
        opts: { tls?: boolean } = {},
      ) => {
        const chaincodeId =
          ccId ?? (await h.ok("POST", "/sc/fabric/chaincodes", { name, network_id: net.id })).chaincode.id;
        const def = (
          await h.ok("POST", `/sc/fabric/chaincodes/${chaincodeId}/definitions`, {
            version,
            sequence,
            endorsement_policy: "AND('CcOrg1MSP.peer','CcOrg2MSP.peer')",
            source_path: source,
            tls: opts.tls ?? false,
          })
        ).definition;
        expect(def.source_type).toBe(name.includes("go") ? "go" : "node");
        const early = await h.call("POST", `/sc/fabric/definitions/${def.id}/deploy`, {});
        expect(early.status).toBe(409);
        expect(early.body.message).toMatch(/install definition \d+ on a peer before deploying it/);

        const inst = await h.ok("POST", `/sc/fabric/definitions/${def.id}/install`, { peer_ids: [peer1.id, peer2.id] });
        expect(inst.package_id).toMatch(new RegExp(`^${name}_${version.replace(/\./g, "\\.")}:[0-9a-f]{64}$`));
        await h.ok("POST", `/sc/fabric/definitions/${def.id}/approve`, { peer_id: peer1.id });
        const tooEarly = await h.call("POST", `/sc/fabric/definitions/${def.id}/commit`, { peer_id: peer1.id });
        expect(tooEarly.status).toBe(409);
        expect(tooEarly.body.message).toMatch(/not approved: CcOrg2MSP/);
        await h.ok("POST", `/sc/fabric/definitions/${def.id}/approve`, { peer_id: peer2.id });
        const status = await h.ok("GET", `/sc/fabric/definitions/${def.id}/status`);
        expect(status.orgs).toEqual([
          { msp_id: "CcOrg1MSP", approved: true },
          { msp_id: "CcOrg2MSP", approved: true },
        ]);
        expect(status.peers.map((p: Json) => p.installed)).toEqual([true, true]);
        await h.ok("POST", `/sc/fabric/definitions/${def.id}/commit`, { peer_id: peer1.id });
        const seq = await h.ok(
          "GET",
          `/sc/fabric/peer/${peer2.id}/chaincode/sequence?chaincodeName=${name}&channelName=ccchannel`,
        );
        expect(seq.sequence).toBe(sequence);
        await h.ok("POST", `/sc/fabric/definitions/${def.id}/deploy`, {});
        const info = await h.ok("GET", `/sc/fabric/definitions/${def.id}/docker-info`);
        expect(info.state).toBe("running");
        const timeline = await h.ok("GET", `/sc/fabric/definitions/${def.id}/timeline`);
        const steps = timeline.map((e: Json) => `${e.event_type}:${e.event_data.status}`);
        expect(steps).toEqual(
          expect.arrayContaining([
            "install:success",
            "approve:success",
            "commit:failed",
            "commit:success",
            "deploy:success",
          ]),
        );
        return { chaincodeId, def };
      };

      // Node.js chaincode.
      const node = await lifecycle("assetnode", chaincodeCopy("asset-node", "1"), "1.0", 1);
      mark("nodeDeployed");
      const wrote = await h.ok("POST", `/sc/fabric/chaincodes/${node.chaincodeId}/invoke`, {
        function: "CreateAsset",
        args: ["a1", "blue"],
      });
      expect(wrote.transaction_id).toMatch(/^[0-9a-f]{64}$/);
      mark("nodeFirstInvoke");
      const read = await h.ok("POST", `/sc/fabric/chaincodes/${node.chaincodeId}/query`, {
        function: "ReadAsset",
        args: ["a1"],
      });
      expect(read.result).toEqual({ id: "a1", value: "blue", version: "1" });
      const dup = await h.call("POST", `/sc/fabric/chaincodes/${node.chaincodeId}/invoke`, {
        function: "CreateAsset",
        args: ["a1", "red"],
      });
      expect(dup.status).toBe(400);
      expect(dup.body.message).toMatch(/a1/);
      // Signed by a client identity of org 2 (key_id), with transient data the chaincode ignores.
      const client = await h.ok("POST", `/organizations/${org2.id}/keys`, { name: "cc-client", role: "client" });
      const clientKeyId = String(client.id);
      const asClient = await h.ok("POST", `/sc/fabric/chaincodes/${node.chaincodeId}/invoke`, {
        function: "UpdateAsset",
        args: ["a1", "blue"],
        key_id: clientKeyId,
        transient: { note: [104, 105] },
      });
      expect(asClient.transaction_id).toMatch(/^[0-9a-f]{64}$/);
      const outsider = await h.call("POST", `/sc/fabric/chaincodes/${node.chaincodeId}/query`, {
        function: "ReadAsset",
        args: ["a1"],
        key_id: "999999",
      });
      expect(outsider.status).toBe(400);
      expect(outsider.body.message).toMatch(/^key_id: key 999999 belongs to no organization/);
      // Each query's audit entry is written before its answer, with the same fields (issue 34 kept both).
      const queryPath = `/api/v1/sc/fabric/chaincodes/${node.chaincodeId}/query`;
      const audited = (await h.ok("GET", "/audit/logs?event_type=chaincode.query&page_size=2")).items as Json[];
      expect(audited.map((e) => [e.eventOutcome, e.affectedResource, e.details])).toEqual([
        [
          "FAILURE",
          `chaincode:${node.chaincodeId}`,
          {
            method: "POST",
            path: queryPath,
            status: 400,
            function: "ReadAsset",
            key_id: "999999",
            actor_username: "admin",
          },
        ],
        [
          "SUCCESS",
          `chaincode:${node.chaincodeId}`,
          { method: "POST", path: queryPath, status: 200, function: "ReadAsset", actor_username: "admin" },
        ],
      ]);
      const meta = await h.ok("GET", `/sc/fabric/chaincodes/${node.chaincodeId}/metadata`);
      expect(JSON.stringify(meta.result)).toMatch(/CreateAsset/);

      // The peer CLI, with an MSP folder the console exported, reads the asset through peer2.
      const msp = await h.ok("POST", `/organizations/${org2.id}/msp/export`, {});
      const peerBin = (await createFabricBinaryResolver({ downloader: null }).findLocal(VERSION, ["peer"]))!;
      // Any folder with a core.yaml serves the CLI; the peer's own config folder has one.
      const nodesDir = join(h.t.config.dataDir, "nodes");
      const cfgDir = join(
        nodesDir,
        readdirSync(nodesDir).find((n) => n.startsWith("c2-peer"))!,
        "config",
      );
      const cli = await run(
        peerBin.paths.peer!,
        ["chaincode", "query", "-C", "ccchannel", "-n", "assetnode", "-c", '{"Args":["ReadAsset","a1"]}'],
        {
          env: {
            ...process.env,
            FABRIC_CFG_PATH: cfgDir,
            CORE_PEER_LOCALMSPID: msp.mspId,
            CORE_PEER_MSPCONFIGPATH: msp.path,
            CORE_PEER_ADDRESS: peer2.fabricPeer.externalEndpoint,
            CORE_PEER_TLS_ENABLED: "true",
            CORE_PEER_TLS_ROOTCERT_FILE: msp.tlsRootCertFile,
          },
        },
      );
      expect(JSON.parse(cli.stdout)).toEqual({ id: "a1", value: "blue", version: "1" });

      // Upgrade: version 2 / sequence 2 changes what ReadAsset returns and keeps the state.
      const badSeq = await h.call("POST", `/sc/fabric/chaincodes/${node.chaincodeId}/definitions`, {
        version: "2.0",
        sequence: 3,
      });
      expect(badSeq.status).toBe(400);
      expect(badSeq.body.message).toMatch(/sequence 1 committed.*must use sequence 2, not 3/);
      const v2 = await lifecycle("assetnode", chaincodeCopy("asset-node", "2"), "2.0", 2, node.chaincodeId);
      await waitFor(
        "version 2 answers",
        async () => {
          const r = await h.call("POST", `/sc/fabric/chaincodes/${node.chaincodeId}/query`, {
            function: "ReadAsset",
            args: ["a1"],
          });
          return r.status === 200 && r.body.result.version === "2" ? r.body : undefined;
        },
        60_000,
      ).then((r) => expect(r.result).toEqual({ id: "a1", value: "blue", version: "2" }));
      await h.ok("POST", `/sc/fabric/definitions/${node.def.id}/undeploy`, {});
      mark("nodeUpgraded");

      // kill -9 of the chaincode server: the supervisor starts it again and calls work.
      const before = await h.ok("GET", `/sc/fabric/definitions/${v2.def.id}/docker-info`);
      process.kill(Number(before.id), "SIGKILL");
      const healed = await waitFor(
        "the chaincode server is restarted",
        async () => {
          const r = await h.call("GET", `/sc/fabric/definitions/${v2.def.id}/docker-info`);
          return r.status === 200 && r.body.id !== before.id && r.body.state === "running" ? r.body : undefined;
        },
        60_000,
      );
      expect(healed.id).not.toBe(before.id);
      await waitFor(
        "invoke after the crash",
        async () => {
          const r = await h.call("POST", `/sc/fabric/chaincodes/${node.chaincodeId}/invoke`, {
            function: "CreateAsset",
            args: ["a2", "green"],
          });
          return r.status === 200 ? r.body : undefined;
        },
        60_000,
      );
      const crash = (await h.ok("GET", `/sc/fabric/definitions/${v2.def.id}/timeline`)).find(
        (e: Json) => e.event_type === "crash",
      );
      expect(crash.event_data).toMatchObject({ signal: expect.anything() });
      mark("healed");

      // Go chaincode.
      let goCc: { chaincodeId: number; def: Json } | undefined;
      if (goOk) {
        // The Go server speaks TLS to the peers (certificate from an org's TLS CA).
        goCc = await lifecycle("assetgo", chaincodeCopy("asset-go", "1"), "1.0", 1, undefined, { tls: true });
        await h.ok("POST", `/sc/fabric/chaincodes/${goCc.chaincodeId}/invoke`, {
          function: "CreateAsset",
          args: ["g1", "gold"],
        });
        const g = await h.ok("POST", `/sc/fabric/chaincodes/${goCc.chaincodeId}/query`, {
          function: "ReadAsset",
          args: ["g1"],
        });
        expect(g.result).toEqual({ id: "g1", value: "gold", version: "1" });
        // The server's TLS key belongs to the definition: deleting it through /keys is refused.
        const tlsKey = await h.t.database.db
          .selectFrom("fabric_chaincode_definitions")
          .select("tls_key_id")
          .where("id", "=", Number(goCc.def.id))
          .executeTakeFirstOrThrow();
        expect(tlsKey.tls_key_id).toBeTruthy();
        const keyDel = await h.call("DELETE", `/keys/${tlsKey.tls_key_id}`);
        expect(keyDel.status, JSON.stringify(keyDel.body)).toBe(409);
        expect(keyDel.body.message).toMatch(/chaincode 'assetgo' version 1.0 \(TLS key of its server\)/);
        mark("goDeployed");

        // Source that does not build: a named 400 with the compiler's words, and the old server keeps serving.
        const broken = chaincodeCopy("asset-go", "3");
        writeFileSync(join(broken, "broken.go"), "package main\n\nfunc broken() { undefinedThing() }\n");
        const bad = (
          await h.ok("POST", `/sc/fabric/chaincodes/${goCc.chaincodeId}/definitions`, {
            version: "3.0",
            sequence: 2,
            source_path: broken,
          })
        ).definition;
        await h.ok("POST", `/sc/fabric/definitions/${bad.id}/install`, { peer_ids: [peer1.id] });
        const failed = await h.call("POST", `/sc/fabric/definitions/${bad.id}/deploy`, {});
        expect(failed.status).toBe(400);
        expect(failed.body.message).toMatch(/^source: go build failed \(exit 1\)/);
        expect(failed.body.details.buildLog).toMatch(/undefined: undefinedThing/);
        const badDef = await h.ok("GET", `/sc/fabric/chaincodes/${goCc.chaincodeId}/definitions/${bad.id}`);
        expect(badDef.definition.deploy_status).toBe("error");
        await h.ok("DELETE", `/sc/fabric/definitions/${bad.id}`);
        const stillGold = await h.ok("POST", `/sc/fabric/chaincodes/${goCc.chaincodeId}/query`, {
          function: "ReadAsset",
          args: ["g1"],
        });
        expect(stillGold.result.value).toBe("gold");
      }

      // A console restart: the servers keep running under the same pids, supervised, not duplicated.
      const pidsBefore = h.chaincodeProcesses().sort();
      expect(pidsBefore.length).toBe(goCc ? 2 : 1);
      await h.t.restart();
      const after = await h.ok("GET", `/sc/fabric/definitions/${v2.def.id}/docker-info`);
      expect(after.id).toBe(healed.id);
      expect(h.chaincodeProcesses().sort()).toEqual(pidsBefore);
      // The new console reports adopted nodes STARTING until their readiness probe passes (a busy
      // machine makes that visible); calls go through RUNNING peers, as for a user after a restart.
      for (const n of [peer1, peer2, orderer]) {
        await waitFor(
          `${n.name} RUNNING after the restart`,
          async () => ((await h.ok("GET", `/nodes/${n.id}`)).status === "RUNNING" ? true : undefined),
          60_000,
        );
      }
      const again = await h.ok("POST", `/sc/fabric/chaincodes/${node.chaincodeId}/query`, {
        function: "ReadAsset",
        args: ["a2"],
      });
      expect(again.result).toEqual({ id: "a2", value: "green", version: "2" });
      // Still supervised: another kill -9 heals after the restart too.
      process.kill(Number(after.id), "SIGKILL");
      await waitFor(
        "restarted by the new console",
        async () => {
          const r = await h.call("GET", `/sc/fabric/definitions/${v2.def.id}/docker-info`);
          return r.status === 200 && r.body.id !== after.id && r.body.state === "running" ? r.body : undefined;
        },
        60_000,
      );
      mark("restarted");

      // With org 2's peer down the AND policy can't be met: the error names the missing org.
      await h.ok("POST", `/nodes/${peer2.id}/stop`);
      const unmet = await h.call("POST", `/sc/fabric/chaincodes/${node.chaincodeId}/invoke`, {
        function: "CreateAsset",
        args: ["a3", "gray"],
      });
      expect([400, 502], JSON.stringify(unmet.body)).toContain(unmet.status);
      expect(unmet.body.message).toMatch(/the endorsement policy needs CcOrg2MSP, which has no running peer/);
      console.log(`unmet policy: ${unmet.status} ${unmet.body.message}`);
      await h.ok("POST", `/nodes/${peer2.id}/start`);
      console.log(`chaincode e2e phases (ms since start): ${JSON.stringify(phase)}`);
    },
  );
});
