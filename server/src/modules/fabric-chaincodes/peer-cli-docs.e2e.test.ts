import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
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
} from "../../test-support/fabric-api.js";

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const ASSET_NODE = resolve(here, "../../fabric/test-support/chaincode/asset-node");
const DOC = resolve(here, "../../../../docs/chaincode.md");
const MARKER = "<!-- doc-test: peer-cli";

/** The shell block that follows the marker comment in docs/chaincode.md. */
function documentedBlock(markdown: string): string {
  const at = markdown.indexOf(MARKER);
  if (at < 0) throw new Error(`docs/chaincode.md has no '${MARKER}' marker`);
  const m = /```sh\n([\s\S]*?)\n```/.exec(markdown.slice(at));
  if (!m) throw new Error("no ```sh block after the peer-cli marker");
  return m[1] as string;
}

const quote = (v: string): string => `'${v.replace(/'/g, `'\\''`)}'`;

/**
 * The block with each documented variable (`NAME=...` or `export NAME=...` at the start of a
 * line) set to the real value; fails on a variable the test does not know, a value it knows that
 * the block does not set, and placeholders left over.
 */
function substitute(block: string, values: Record<string, string>): string {
  const seen = new Set<string>();
  const out = block.replace(/^(export )?([A-Z_][A-Z0-9_]*)=.*$/gm, (_line, exp: string | undefined, name: string) => {
    const v = values[name];
    if (v === undefined) throw new Error(`docs/chaincode.md sets ${name}, which the test has no value for`);
    seen.add(name);
    return `${exp ?? ""}${name}=${quote(v)}`;
  });
  const unset = Object.keys(values).filter((k) => !seen.has(k));
  if (unset.length) throw new Error(`docs/chaincode.md no longer sets ${unset.join(", ")}`);
  if (/<[a-zA-Z]+>/.test(out)) throw new Error(`placeholders left in the commands:\n${out}`);
  return out;
}

/**
 * The `peer` CLI commands of docs/chaincode.md ("Other clients"), word for word, on real
 * binaries: one peer org and one orderer org on a channel, a Node.js chaincode deployed through
 * the API, and an MSP export. The documented variables get the export's paths and the nodes'
 * endpoints; bash runs the block with the stock `peer` binary (getinfo, invoke through the
 * orderer with the exported orderer TLS CA, query), with nothing else in its environment.
 */
const bins = await haveFabricBinaries("peer CLI docs e2e");
let harness: FabricApi | undefined;
const work = mkdtempSync(join(tmpdir(), "cl-peer-cli-"));
afterAll(async () => {
  await harness?.close();
  rmSync(work, { recursive: true, force: true });
});

describe("the documented peer CLI commands", () => {
  it("finds the commands and their variables in the docs", () => {
    const block = documentedBlock(readFileSync(DOC, "utf8"));
    expect(block).toMatch(/^peer chaincode invoke /m);
    expect(block).toMatch(/^peer chaincode query /m);
  });

  it.skipIf(!bins)(
    `run word for word against a real peer and orderer (Fabric ${VERSION})`,
    { timeout: 600_000 },
    async () => {
      const h = await fabricApi({ portCount: 20 });
      harness = h;
      const { org, ord, peer, orderer, net } = await h.peerOrdererChannel({
        code: "Pc",
        prefix: "pc",
        channel: "pcchannel",
      });
      const cc = (await h.ok("POST", "/sc/fabric/chaincodes", { name: "pcasset", network_id: net.id })).chaincode;
      const def = (
        await h.ok("POST", `/sc/fabric/chaincodes/${cc.id}/definitions`, {
          version: "1.0",
          sequence: 1,
          endorsement_policy: "OR('PcOrg1MSP.peer')",
          source_path: ASSET_NODE,
        })
      ).definition;
      await h.ok("POST", `/sc/fabric/definitions/${def.id}/install`, { peer_ids: [peer.id] });
      await h.ok("POST", `/sc/fabric/definitions/${def.id}/approve`, { peer_id: peer.id });
      await h.ok("POST", `/sc/fabric/definitions/${def.id}/commit`, { peer_id: peer.id });
      await h.ok("POST", `/sc/fabric/definitions/${def.id}/deploy`, {});

      const msp = await h.ok("POST", `/organizations/${org.id}/msp/export`, {});
      // What the CLI needs beside the MSP folder: a core.yaml and the orderer org's TLS CA.
      expect(statSync(join(msp.configPath, "core.yaml")).isFile()).toBe(true);
      expect(statSync(join(msp.path, "keystore", "key.pem")).mode & 0o777).toBe(0o600);
      const ordOrg = await h.ok("GET", `/organizations/${ord.id}`);
      expect(msp.ordererTlsRootCertFiles).toEqual([{ mspId: "PcOrdMSP", file: expect.any(String) }]);
      expect(readFileSync(msp.ordererTlsRootCertFiles[0].file, "utf8").trim()).toBe(
        String(ordOrg.tlsCertificate).trim(),
      );
      expect(readFileSync(msp.ordererTlsRootCertFile, "utf8").trim()).toBe(String(ordOrg.tlsCertificate).trim());

      const script = substitute(documentedBlock(readFileSync(DOC, "utf8")), {
        FABRIC_CFG_PATH: msp.configPath,
        CORE_PEER_MSPCONFIGPATH: msp.path,
        CORE_PEER_LOCALMSPID: msp.mspId,
        CORE_PEER_TLS_ENABLED: "true",
        CORE_PEER_TLS_ROOTCERT_FILE: msp.tlsRootCertFile,
        CORE_PEER_ADDRESS: peer.fabricPeer.externalEndpoint,
        ORDERER_ADDRESS: orderer.fabricOrderer.externalEndpoint,
        ORDERER_CA: msp.ordererTlsRootCertFile,
        CHANNEL: "pcchannel",
        CHAINCODE: "pcasset",
      });
      const peerBin = (await createFabricBinaryResolver({ downloader: null }).findLocal(VERSION, ["peer"]))!.paths
        .peer!;
      // Only what a shell on the console host has: PATH (with the peer binary) and HOME.
      const env = { PATH: `${dirname(peerBin)}:${process.env.PATH ?? "/usr/bin:/bin"}`, HOME: work };
      const shell = async (text: string): Promise<{ stdout: string; stderr: string }> => {
        try {
          // --norc: bash reads bashrc under -c when its stdin is a socket, as Node's pipes are.
          return await run("bash", ["--norc", "-euo", "pipefail", "-c", text], { cwd: work, env, timeout: 120_000 });
        } catch (err) {
          const e = err as { stdout?: string; stderr?: string; message: string };
          throw new Error(`${e.message}\nscript:\n${text}\nstdout:\n${e.stdout}\nstderr:\n${e.stderr}`);
        }
      };

      const out = await shell(script);
      const info = await h.ok("GET", `/networks/fabric/${net.id}/info`);
      expect(out.stdout).toMatch(/Blockchain info: \{"height":\d+/);
      expect(out.stderr).toMatch(/Chaincode invoke successful\. result: status:200/);
      const lines = out.stdout.trim().split("\n");
      expect(JSON.parse(lines[lines.length - 1] as string)).toEqual({ id: "a1", value: "blue", version: "1" });
      // The invoke went through the channel: the console reads the asset as well.
      const read = await h.ok("POST", `/sc/fabric/chaincodes/${cc.id}/query`, { function: "ReadAsset", args: ["a1"] });
      expect(read.result).toEqual({ id: "a1", value: "blue", version: "1" });
      expect(info.height).toBeGreaterThanOrEqual(2);

      // As the docs say: the core.yaml alone sets the identity, TLS and the peer.
      const alone = await shell(
        `export FABRIC_CFG_PATH=${quote(msp.configPath)}\npeer chaincode query -C pcchannel -n pcasset -c '{"Args":["ReadAsset","a1"]}'`,
      );
      expect(JSON.parse(alone.stdout)).toEqual({ id: "a1", value: "blue", version: "1" });
      // And without it the CLI does not start, which is what the export's core.yaml fixes.
      const noConfig = await shell(
        `export FABRIC_CFG_PATH=${quote(work)}\npeer chaincode query -C pcchannel -n pcasset -c '{"Args":["ReadAsset","a1"]}' 2>&1 || true`,
      );
      expect(noConfig.stdout).toMatch(/Config File "core" Not Found/);
    },
  );
});
