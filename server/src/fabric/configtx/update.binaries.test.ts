import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { common } from "@hyperledger/fabric-protos";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSigningIdentity } from "../identity.js";
import { buildChannelMsp } from "../msp/index.js";
import { findTestBinaries, runBinary } from "../test-support/fabric-bins.js";
import { createTestOrg, type TestOrg } from "../test-support/org-fixtures.js";
import { verifyMessage } from "../../crypto/key-algorithms.js";
import { buildChannelConfig } from "./channel-config.js";
import { configUpdateToJson } from "./config-json.js";
import { ConfigtxInputError } from "./errors.js";
import {
  addApplicationOrg,
  addRaftConsenter,
  removeApplicationOrg,
  setAnchorPeers,
  setBatchSize,
  setBatchTimeout,
  setEtcdRaftOptions,
  setOrgCrls,
} from "./operations.js";
import type { ChannelConfigInput } from "./types.js";
import { buildSignedConfigUpdate, computeConfigUpdate } from "./update.js";

const bins = await findTestBinaries(["configtxlator"], "configtx compute_update vs configtxlator");
const root = mkdtempSync(join(tmpdir(), "cl-configtx-update-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let org1: TestOrg;
let org2: TestOrg;
let original: common.Config;

beforeAll(async () => {
  org1 = await createTestOrg("Org1MSP", "org1.example.com");
  org2 = await createTestOrg("Org2MSP", "org2.example.com");
  const msp1 = buildChannelMsp({
    mspId: "Org1MSP",
    caCertPem: org1.ca.certificatePem,
    tlsCaCertPem: org1.tlsCa.certificatePem,
  });
  const tls = (await org1.tls("orderer0")).certPem;
  const input: ChannelConfigInput = {
    channelId: "mychannel",
    peerOrgs: [{ msp: msp1 }],
    ordererOrgs: [{ msp: msp1, ordererEndpoints: ["orderer0:7050"] }],
    consensus: {
      type: "etcdraft",
      consenters: [{ host: "orderer0", port: 7050, clientTlsCert: tls, serverTlsCert: tls }],
    },
  };
  original = buildChannelConfig(input);
  // As on a live channel: versions above 0 after earlier updates.
  original.getChannelGroup()?.setVersion(3);
});

async function configtxlatorUpdate(name: string, updated: common.Config): Promise<unknown> {
  const b = bins as NonNullable<typeof bins>;
  const o = join(root, `${name}.orig.pb`);
  const u = join(root, `${name}.upd.pb`);
  writeFileSync(o, original.serializeBinary());
  writeFileSync(u, updated.serializeBinary());
  const out = join(root, `${name}.update.pb`);
  const r = await runBinary(b.path("configtxlator"), [
    "compute_update",
    "--channel_id",
    "mychannel",
    "--original",
    o,
    "--updated",
    u,
    "--output",
    out,
  ]);
  expect(r.code, r.stderr).toBe(0);
  const d = await runBinary(b.path("configtxlator"), [
    "proto_decode",
    "--type",
    "common.ConfigUpdate",
    "--input",
    out,
    "--output",
    `${out}.json`,
  ]);
  expect(d.code, d.stderr).toBe(0);
  return JSON.parse(readFileSync(`${out}.json`, "utf8"));
}

describe.skipIf(!bins)("computeConfigUpdate vs configtxlator compute_update", () => {
  it("batch timeout change: same read and write sets", async () => {
    const updated = setBatchTimeout(original, "1s");
    const ours = configUpdateToJson(computeConfigUpdate("mychannel", original, updated));
    expect(ours).toEqual(await configtxlatorUpdate("timeout", updated));
    expect(ours).toMatchObject({
      write_set: { groups: { Orderer: { values: { BatchTimeout: { version: "1", value: { timeout: "1s" } } } } } },
    });
  });

  it("adding an org: same read and write sets", async () => {
    const msp2 = buildChannelMsp({
      mspId: "Org2MSP",
      caCertPem: org2.ca.certificatePem,
      tlsCaCertPem: org2.tlsCa.certificatePem,
    });
    const updated = addApplicationOrg(original, { msp: msp2, anchorPeers: [{ host: "peer0.org2", port: 9051 }] });
    const ours = configUpdateToJson(computeConfigUpdate("mychannel", original, updated));
    expect(ours).toEqual(await configtxlatorUpdate("addorg", updated));
    expect(ours).toMatchObject({
      write_set: { groups: { Application: { version: "1", groups: { Org2MSP: { version: "0" } } } } },
    });
  });

  it("removing an org, anchor peers, batch size, raft options and consenters, CRLs", async () => {
    const crl = "-----BEGIN X509 CRL-----\nMIIBAA==\n-----END X509 CRL-----\n";
    const tls2 = (await org1.tls("orderer1")).certPem;
    const cases: [string, common.Config][] = [
      ["anchors", setAnchorPeers(original, "Org1MSP", [{ host: "peer0.org1", port: 7051 }])],
      ["batchsize", setBatchSize(original, { maxMessageCount: 20 })],
      ["raftopts", setEtcdRaftOptions(original, { snapshotIntervalSize: 1024 })],
      [
        "consenter",
        addRaftConsenter(original, { host: "orderer1", port: 7051, clientTlsCert: tls2, serverTlsCert: tls2 }),
      ],
      ["crl", setOrgCrls(original, "Org1MSP", [crl])],
      ["rmorg", removeApplicationOrg(original, "Org1MSP")],
    ];
    for (const [name, updated] of cases) {
      const ours = configUpdateToJson(computeConfigUpdate("mychannel", original, updated));
      expect(ours, name).toEqual(await configtxlatorUpdate(name, updated));
    }
  });
});

describe("config update signing", () => {
  it("rejects an update without differences", () => {
    expect(() => computeConfigUpdate("mychannel", original, original)).toThrow(ConfigtxInputError);
  });

  it("signs header ‖ config_update with low-S signatures and wraps a CONFIG_UPDATE envelope", async () => {
    const admin = await org1.identity("admin.org1", "admin");
    const id = createSigningIdentity({ mspId: "Org1MSP", certPem: admin.certPem, privateKey: admin.keyPem });
    const env = buildSignedConfigUpdate({
      channelId: "mychannel",
      original,
      updated: setBatchTimeout(original, "1s"),
      signers: [id],
    });
    const payload = common.Payload.deserializeBinary(env.getPayload_asU8());
    const ch = common.ChannelHeader.deserializeBinary(payload.getHeader()?.getChannelHeader_asU8() as Uint8Array);
    expect([ch.getType(), ch.getChannelId()]).toEqual([common.HeaderType.CONFIG_UPDATE, "mychannel"]);
    const cue = common.ConfigUpdateEnvelope.deserializeBinary(payload.getData_asU8());
    const [sig] = cue.getSignaturesList();
    const { createPublicKey } = await import("node:crypto");
    const pub = createPublicKey(admin.certPem);
    const signed = Buffer.concat([sig?.getSignatureHeader_asU8() as Uint8Array, cue.getConfigUpdate_asU8()]);
    expect(verifyMessage(pub, signed, sig?.getSignature_asU8() as Uint8Array)).toBe(true);
    expect(verifyMessage(pub, env.getPayload_asU8(), env.getSignature_asU8())).toBe(true);
  });
});
