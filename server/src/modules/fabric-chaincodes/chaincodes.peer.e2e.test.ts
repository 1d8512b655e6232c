import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { common } from "@hyperledger/fabric-protos";
import { afterAll, describe, expect, it } from "vitest";
import { buildCcaasPackage, ustar } from "../../fabric/chaincode/package.js";
import { createFabricBinaryResolver } from "../../runtime/index.js";
import { blockHeaderHash } from "../../fabric/configtx/genesis.js";
import { expectHostCommandRefused, managerCallers } from "../../test-support/callers.js";
import {
  E2E_FABRIC_VERSION as VERSION,
  fabricApi,
  type FabricApi,
  haveFabricBinaries,
  type Json,
  waitFor,
} from "../../test-support/fabric-api.js";
import { createUser, dialects } from "../../test-support/test-app.js";

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const ASSET_NODE = resolve(here, "../../fabric/test-support/chaincode/asset-node");

/**
 * Upstream's per-peer lifecycle, one-shot deploy, transaction read and reload-block on real
 * binaries: one org's peer and an orderer on a channel. A ccaas package (the bytes `peer lifecycle
 * chaincode package` writes) is installed, approved and committed through the peer routes, the
 * console runs its server from the Node test chaincode, and invoke/query answer; a second chaincode
 * goes through POST /sc/fabric/deploy with a Go-shaped body. The invoke's transaction is read back
 * decoded; reload-block stores the orderer's newest config block.
 */
const bins = await haveFabricBinaries("per-peer lifecycle e2e");
const harnesses: FabricApi[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.close();
});

/** A gzip tar of metadata.json only: a package of another type than ccaas (never sent to a peer here). */
function golangPackage(label: string): Buffer {
  return gzipSync(ustar([["metadata.json", Buffer.from(JSON.stringify({ type: "golang", label, path: "x" }))]]));
}

describe.each(dialects())(
  "upstream's per-peer chaincode lifecycle, deploy, transactions and reload-block on %s",
  (dialect) => {
    it.skipIf(!bins)(`runs on a real peer and orderer (Fabric ${VERSION})`, { timeout: 600_000 }, async () => {
      const h = await fabricApi({ dialect });
      harnesses.push(h);
      const { org, peer, orderer, net } = await h.peerOrdererChannel({
        code: "Pp",
        prefix: "pp",
        channel: "ppchannel",
      });
      const json = (method: "POST" | "GET", url: string, body?: unknown, headers = h.t.admin) =>
        h.t.app
          .inject({
            method,
            url: `/api/v1${url}`,
            headers: { ...headers, "content-type": "application/json" },
            ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
          })
          .then((r) => ({ status: r.statusCode, body: (r.body ? r.json() : undefined) as Json, raw: r }));
      const policy = "OR('PpOrg1MSP.member')";

      // Per peer: install, approve, commit.
      const pkg = buildCcaasPackage({
        label: "pppeer_1.0",
        connection: { address: `127.0.0.1:${h.ports + 50}`, dial_timeout: "10s", tls_required: false },
      });
      const install = await json("POST", `/sc/fabric/peer/${peer.id}/chaincode/install`, {
        label: "pppeer_1.0",
        package_bytes: pkg.bytes.toString("base64"),
      });
      expect(install.status, JSON.stringify(install.body)).toBe(200);
      expect(install.body.result).toMatchObject({ success: true, chaincodeID: pkg.packageId, error: null });
      const approveBody = {
        channelID: "ppchannel",
        name: "pppeer",
        version: "1.0",
        sequence: 1,
        packageID: pkg.packageId,
        endorsementPolicy: policy,
        initRequired: false,
      };
      const approved = await json("POST", `/sc/fabric/peer/${peer.id}/chaincode/approve`, approveBody);
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
      expect(approved.body.result.transactionHash).toMatch(/^[0-9a-f]{64}$/);
      const again = await json("POST", `/sc/fabric/peer/${peer.id}/chaincode/approve`, approveBody);
      expect(again.body.message).toMatch(/already approved/);
      expect(again.body.result.transactionHash).toBe("");
      const { packageID: _unused, ...commitBody } = approveBody;
      const committed = await json("POST", `/sc/fabric/peer/${peer.id}/chaincode/commit`, commitBody);
      expect(committed.status, JSON.stringify(committed.body)).toBe(200);
      expect(committed.body.result.transactionHash).toMatch(/^[0-9a-f]{64}$/);
      const seq = await h.ok(
        "GET",
        `/sc/fabric/peer/${peer.id}/chaincode/sequence?chaincodeName=pppeer&channelName=ppchannel`,
      );
      expect(seq.sequence).toBe(1);
      const defId = committed.body.definitionId as number;
      expect(defId).toBe(approved.body.definitionId);
      const timeline: Json[] = await h.ok("GET", `/sc/fabric/definitions/${defId}/timeline`);
      expect(timeline.map((e) => `${e.event_type}:${e.event_data.status}`)).toEqual([
        "created:success",
        "install:success",
        "approve:success",
        "approve:success",
        "commit:success",
      ]);

      // The console runs the package's server from the test chaincode, and it answers.
      const cc = (await h.ok("GET", "/sc/fabric/chaincodes")).chaincodes.find((c: Json) => c.name === "pppeer");
      expect(cc.latest_definition.origin).toBe("package");
      await h.ok("POST", `/sc/fabric/definitions/${defId}/source`, { source_path: ASSET_NODE });
      await h.ok("POST", `/sc/fabric/definitions/${defId}/deploy`, {});
      const wrote = await h.ok("POST", `/sc/fabric/chaincodes/${cc.id}/invoke`, {
        function: "CreateAsset",
        args: ["p1", "blue"],
      });
      const read = await h.ok("POST", `/sc/fabric/chaincodes/${cc.id}/query`, { function: "ReadAsset", args: ["p1"] });
      expect(read.result).toMatchObject({ id: "p1", value: "blue" });
      // A chaincode error comes back in the peer's own words, with the peer and its org named.
      const missing = await h.call("POST", `/sc/fabric/chaincodes/${cc.id}/query`, {
        function: "ReadAsset",
        args: ["nope"],
      });
      expect(missing.status).toBe(400);
      expect(missing.body.message).toMatch(
        /^query ReadAsset: .*asset nope does not exist.*\(PpOrg1MSP@[^:]+:\d+: .*asset nope does not exist/,
      );
      expect(missing.body.details).toMatchObject({
        stage: "evaluate",
        transactionId: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      expect(missing.body.details.peers).toEqual([
        expect.objectContaining({ mspId: "PpOrg1MSP", message: expect.stringMatching(/asset nope does not exist/) }),
      ]);

      // The invoke's transaction, decoded from the peer.
      const tx = await h.ok("GET", `/networks/fabric/${net.id}/transactions/${wrote.transaction_id}`);
      expect(tx.block.number).toBeGreaterThan(0);
      expect(tx.block.transactions).toHaveLength(1);
      expect(tx.block.transactions[0]).toMatchObject({
        id: wrote.transaction_id,
        type: "ENDORSER_TRANSACTION",
        channelId: "ppchannel",
        creatorMspId: "PpOrg1MSP",
        validationCode: "VALID",
        chaincodeId: "pppeer",
        request: ["CreateAsset", "p1", "blue"],
      });
      const lifecycleTx = await h.ok(
        "GET",
        `/networks/fabric/${net.id}/transactions/${committed.body.result.transactionHash}`,
      );
      expect(lifecycleTx.block.transactions[0]).toMatchObject({ chaincodeId: "_lifecycle", validationCode: "VALID" });
      const unknown = await h.call("GET", `/networks/fabric/${net.id}/transactions/${"ab".repeat(32)}`);
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toMatch(new RegExp(`^txId: transaction '${"ab".repeat(32)}' not found`));
      expect((await h.call("GET", `/networks/fabric/${net.id}/transactions/bad%20id`)).status).toBe(400);

      // One-shot deploy, Go-shaped (bytes as an int array, nulls, zero values meaning "as approved").
      const pkg2 = buildCcaasPackage({
        label: "ppone_1.0",
        connection: { address: `127.0.0.1:${h.ports + 51}`, dial_timeout: "10s", tls_required: false },
      });
      const deployed = await json("POST", "/sc/fabric/deploy", {
        installParams: { label: "ppone_1.0", packageBytes: [...pkg2.bytes], peer: {} },
        approveParams: {
          channelID: "ppchannel",
          name: "ppone",
          version: "1.0",
          sequence: 1,
          packageID: "",
          endorsementPolicy: policy,
          initRequired: false,
          collectionsConfig: null,
          gateway: {},
        },
        commitParams: {
          channelID: "",
          name: "",
          version: "",
          sequence: 0,
          endorsementPolicy: "",
          initRequired: false,
          collectionsConfig: null,
          gateway: null,
        },
        somethingNew: 1,
      });
      expect(deployed.status, JSON.stringify(deployed.body)).toBe(200);
      expect(deployed.body.result).toMatchObject({ success: true, chaincodeID: pkg2.packageId });
      expect(deployed.body.result.logs).toMatch(
        /install on pp-peer0: installed\napprove: approved for PpOrg1MSP\ncommit: committed sequence 1/,
      );
      const def2 = deployed.body.definitionId as number;
      const steps2: Json[] = await h.ok("GET", `/sc/fabric/definitions/${def2}/timeline`);
      expect(steps2.map((e) => `${e.event_type}:${e.event_data.status}`)).toEqual([
        "created:success",
        "install:success",
        "approve:success",
        "commit:success",
      ]);
      // A retry is safe: every step answers that the channel has it already.
      const retry = await json("POST", "/sc/fabric/deploy", {
        installParams: { label: "ppone_1.0", packageBytes: pkg2.bytes.toString("base64") },
        approveParams: {
          channelID: "ppchannel",
          name: "ppone",
          version: "1.0",
          sequence: 1,
          endorsementPolicy: policy,
        },
      });
      expect(retry.status, JSON.stringify(retry.body)).toBe(200);
      expect(retry.body.result.logs).toMatch(/already installed[\s\S]*already approved[\s\S]*already committed/);
      const cc2 = (await h.ok("GET", "/sc/fabric/chaincodes")).chaincodes.find((c: Json) => c.name === "ppone");
      await h.ok("POST", `/sc/fabric/definitions/${def2}/source`, { source_path: ASSET_NODE });
      await h.ok("POST", `/sc/fabric/definitions/${def2}/deploy`, {});
      await h.ok("POST", `/sc/fabric/chaincodes/${cc2.id}/invoke`, { function: "CreateAsset", args: ["o1", "green"] });
      expect(
        (await h.ok("POST", `/sc/fabric/chaincodes/${cc2.id}/query`, { function: "ReadAsset", args: ["o1"] })).result,
      ).toMatchObject({ value: "green" });

      // Bad input: 400 naming the field.
      const bad: [string, unknown, string][] = [
        [
          `/sc/fabric/peer/${peer.id}/chaincode/install`,
          { label: "x", package_bytes: "bm90IGEgcGFja2FnZQ==" },
          "package_bytes",
        ],
        [
          `/sc/fabric/peer/${peer.id}/chaincode/install`,
          { label: "other_1", package_bytes: pkg.bytes.toString("base64") },
          "label",
        ],
        [`/sc/fabric/peer/${peer.id}/chaincode/install`, undefined, "package_bytes"],
        // Go's empty body reads as {} (every field of the shape is optional there): the first field checked is named.
        [`/sc/fabric/peer/${peer.id}/chaincode/approve`, undefined, "name"],
        [`/sc/fabric/peer/${peer.id}/chaincode/approve`, { ...approveBody, channelID: "nochannel" }, "channelID"],
        [`/sc/fabric/peer/${peer.id}/chaincode/approve`, { ...approveBody, version: "1 0" }, "version"],
        [`/sc/fabric/peer/${peer.id}/chaincode/approve`, { ...approveBody, sequence: 0 }, "sequence"],
        [`/sc/fabric/peer/${peer.id}/chaincode/approve`, { ...approveBody, name: "Bad Name" }, "name"],
        [
          `/sc/fabric/peer/${peer.id}/chaincode/commit`,
          { ...commitBody, endorsementPolicy: "NOPE(" },
          "endorsementPolicy",
        ],
        [`/sc/fabric/peer/${orderer.id}/chaincode/approve`, approveBody, "peerId"],
        ["/sc/fabric/deploy", { installParams: { packageBytes: [1, 2] } }, "installParams.packageBytes"],
        [
          "/sc/fabric/deploy",
          {
            installParams: { packageBytes: pkg2.bytes.toString("base64") },
            approveParams: { ...approveBody, name: "ppone", collectionsConfig: "AAEC" },
          },
          "approveParams.collectionsConfig",
        ],
      ];
      for (const [url, body, field] of bad) {
        const res = await json("POST", url, body);
        expect(res.status, `${url} ${field}: ${JSON.stringify(res.body)}`).toBe(400);
        // An empty body (Go's way) is named as the body; every other case names its field.
        const name = body === undefined ? `(body|${field})` : field.replace(/\./g, "\\.");
        expect(res.body.message).toMatch(new RegExp(`^${name}`));
      }
      // A committed sequence with other parameters is a 409 naming the sequence.
      const changed = await json("POST", `/sc/fabric/peer/${peer.id}/chaincode/approve`, {
        ...approveBody,
        version: "2.0",
      });
      expect(changed.status).toBe(409);
      expect(changed.body.message).toMatch(/^sequence: sequence 1 of 'pppeer' is committed .*version/);

      // A definition the console packages itself keeps its own package: another package id is a 409.
      const own = (await h.ok("POST", "/sc/fabric/chaincodes", { name: "ppown", network_id: net.id })).chaincode;
      await h.ok("POST", `/sc/fabric/chaincodes/${own.id}/definitions`, { version: "1.0", sequence: 1 });
      const swapped = await json("POST", `/sc/fabric/peer/${peer.id}/chaincode/approve`, {
        ...approveBody,
        name: "ppown",
      });
      expect(swapped.status).toBe(409);
      expect(swapped.body.message).toMatch(/^packageID: sequence 1 of 'ppown' is this console's definition \d+/);

      // Reload-block: the stored block is the orderer's newest config block, and a config update made
      // outside the console (the peer CLI and configtxlator, signed by the org's admin) shows after a reload.
      expect((await h.ok("GET", `/networks/fabric/${net.id}`)).currentConfigBlock).toBe("");
      const first = await h.ok("POST", `/networks/fabric/${net.id}/reload-block`);
      const storedBlock = async () =>
        common.Block.deserializeBinary(
          Buffer.from((await h.ok("GET", `/networks/fabric/${net.id}`)).currentConfigBlock, "base64"),
        );
      const configNumber = Number(first.blockNumber);
      const configBlock = await h.ok("GET", `/networks/fabric/${net.id}/blocks/${configNumber}`);
      expect(configBlock.block.transactions[0].type).toBe("CONFIG");
      const stored1 = await storedBlock();
      expect(stored1.getHeader()!.getNumber()).toBe(configNumber);
      expect(Buffer.from(blockHeaderHash(stored1.getHeader()!)).toString("hex")).toBe(configBlock.block.hash);
      expect(Buffer.from(stored1.serializeBinary()).toString("utf8")).not.toContain("cli-anchor.example");

      const msp = await h.ok("POST", `/organizations/${org.id}/msp/export`, {});
      const bins = (await createFabricBinaryResolver({ downloader: null }).findLocal(VERSION, [
        "peer",
        "configtxlator",
      ]))!;
      const work = mkdtempSync(join(tmpdir(), "pp-cli-"));
      const f = (n: string) => join(work, n);
      const env = {
        ...process.env,
        FABRIC_CFG_PATH: msp.configPath,
        CORE_PEER_LOCALMSPID: msp.mspId,
        CORE_PEER_MSPCONFIGPATH: msp.path,
        CORE_PEER_ADDRESS: peer.endpoint,
        CORE_PEER_TLS_ENABLED: "true",
        CORE_PEER_TLS_ROOTCERT_FILE: msp.tlsRootCertFile,
      };
      const ordering = ["-o", orderer.endpoint, "--tls", "--cafile", msp.ordererTlsRootCertFile];
      const peerCli = (...args: string[]) => run(bins.paths.peer!, args, { env });
      const lator = (...args: string[]) => run(bins.paths.configtxlator!, args);
      await peerCli("channel", "fetch", "config", f("block.pb"), "-c", "ppchannel", ...ordering);
      await lator("proto_decode", "--type", "common.Block", "--input", f("block.pb"), "--output", f("block.json"));
      const config = JSON.parse(readFileSync(f("block.json"), "utf8")).data.data[0].payload.data.config;
      writeFileSync(f("config.json"), JSON.stringify(config));
      const anchors = config.channel_group.groups.Application.groups.PpOrg1MSP.values.AnchorPeers.value.anchor_peers;
      anchors.push({ host: "cli-anchor.example", port: 7051 });
      writeFileSync(f("modified.json"), JSON.stringify(config));
      await lator("proto_encode", "--type", "common.Config", "--input", f("config.json"), "--output", f("config.pb"));
      await lator(
        "proto_encode",
        "--type",
        "common.Config",
        "--input",
        f("modified.json"),
        "--output",
        f("modified.pb"),
      );
      await lator(
        "compute_update",
        "--channel_id",
        "ppchannel",
        "--original",
        f("config.pb"),
        "--updated",
        f("modified.pb"),
        "--output",
        f("update.pb"),
      );
      await lator(
        "proto_decode",
        "--type",
        "common.ConfigUpdate",
        "--input",
        f("update.pb"),
        "--output",
        f("update.json"),
      );
      const envelope = {
        payload: {
          header: { channel_header: { channel_id: "ppchannel", type: 2 } },
          data: { config_update: JSON.parse(readFileSync(f("update.json"), "utf8")) },
        },
      };
      writeFileSync(f("envelope.json"), JSON.stringify(envelope));
      await lator(
        "proto_encode",
        "--type",
        "common.Envelope",
        "--input",
        f("envelope.json"),
        "--output",
        f("envelope.pb"),
      );
      await peerCli("channel", "update", "-f", f("envelope.pb"), "-c", "ppchannel", ...ordering);
      rmSync(work, { recursive: true, force: true });

      const second = await waitFor(
        "the CLI's config block is read",
        async () => {
          const r = await h.ok("POST", `/networks/fabric/${net.id}/reload-block`);
          return Number(r.blockNumber) > configNumber ? r : undefined;
        },
        30_000,
      );
      const stored2 = await storedBlock();
      expect(stored2.getHeader()!.getNumber()).toBe(Number(second.blockNumber));
      // reload-block read the block from the orderer; the peer the explorer reads commits it a moment later
      // (CI at load 13: "block 8 not found: the chain height is 8").
      const cliBlock = await waitFor(
        "the peer has the CLI's config block",
        async () => {
          const r = await h.call("GET", `/networks/fabric/${net.id}/blocks/${second.blockNumber}`);
          if (r.status === 404) return undefined;
          expect(r.status).toBe(200);
          return r.body;
        },
        30_000,
      );
      expect(Buffer.from(blockHeaderHash(stored2.getHeader()!)).toString("hex")).toBe(cliBlock.block.hash);
      expect(Buffer.from(stored2.serializeBinary()).toString("utf8")).toContain("cli-anchor.example");
      const audit = await h.ok("GET", "/audit/logs?event_type=fabric_network.reload_block&page_size=10");
      expect(audit.items.length).toBeGreaterThanOrEqual(2);

      // Roles: viewers read transactions only; a manager's non-ccaas package is a host command.
      const viewer = await createUser(h.t, "vic", "viewer");
      expect(
        (await json("GET", `/networks/fabric/${net.id}/transactions/${wrote.transaction_id}`, undefined, viewer))
          .status,
      ).toBe(200);
      for (const url of [
        `/sc/fabric/peer/${peer.id}/chaincode/install`,
        `/sc/fabric/peer/${peer.id}/chaincode/approve`,
        `/sc/fabric/peer/${peer.id}/chaincode/commit`,
        "/sc/fabric/deploy",
        `/networks/fabric/${net.id}/reload-block`,
      ])
        expect((await json("POST", url, {}, viewer)).status, url).toBe(403);
      const [mgr] = await managerCallers(h.t);
      const golang = golangPackage("gocc_1");
      const packages = async () => (await h.ok("GET", "/sc/fabric/chaincodes")).chaincodes.length;
      const before = await packages();
      const refused = await h.t.app.inject({
        method: "POST",
        url: `/api/v1/sc/fabric/peer/${peer.id}/chaincode/install`,
        headers: { ...mgr!.headers, "content-type": "application/json" },
        payload: JSON.stringify({ label: "gocc_1", package_bytes: golang.toString("base64") }),
      });
      await expectHostCommandRefused(h.t, refused, {
        eventType: "chaincode.peer_install",
        field: "package_bytes",
        before,
        state: packages,
      });
      // A manager installs and approves ccaas packages as the definition routes allow.
      const mgrApprove = await h.t.app.inject({
        method: "POST",
        url: `/api/v1/sc/fabric/peer/${peer.id}/chaincode/approve`,
        headers: { ...mgr!.headers, "content-type": "application/json" },
        payload: JSON.stringify(approveBody),
      });
      expect(mgrApprove.statusCode, mgrApprove.body).toBe(200);
    });
  },
);
