import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { common } from "@hyperledger/fabric-protos";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildChannelMsp, writeLocalMsp, type ChannelMspConfig } from "../msp/index.js";
import { findTestBinaries, runBinary } from "../test-support/fabric-bins.js";
import { createTestOrg, type TestOrg } from "../test-support/org-fixtures.js";
import { buildChannelConfig } from "./channel-config.js";
import { configToJson, type Json } from "./config-json.js";
import { genesisBlockFromConfig } from "./genesis.js";
import type { ChannelConfigInput } from "./types.js";

/**
 * Our genesis block against the real tools: configtxlator decodes it to what we meant, and
 * configtxgen builds the same config from an equivalent configtx.yaml.
 */
const bins = await findTestBinaries(["configtxlator", "configtxgen"], "configtx genesis vs configtxlator/configtxgen");
const root = mkdtempSync(join(tmpdir(), "cl-configtx-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

type JsonObject = { [k: string]: Json };
const get = (j: Json, ...path: string[]): Json =>
  path.reduce<Json>((acc, k) => (acc as JsonObject | null)?.[k] ?? null, j);

async function decode(blockFile: string): Promise<JsonObject> {
  const b = bins as NonNullable<typeof bins>;
  const r = await runBinary(b.path("configtxlator"), [
    "proto_decode",
    "--type",
    "common.Block",
    "--input",
    blockFile,
    "--output",
    `${blockFile}.json`,
  ]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(readFileSync(`${blockFile}.json`, "utf8")) as JsonObject;
}

let org1: TestOrg;
let org2: TestOrg;
let msp1: ChannelMspConfig;
let msp2: ChannelMspConfig;
const tlsCerts: Record<string, string> = {};
const ORDERERS = ["orderer0.org1.example.com", "orderer1.org1.example.com", "orderer2.org1.example.com"];

beforeAll(async () => {
  org1 = await createTestOrg("Org1MSP", "org1.example.com");
  org2 = await createTestOrg("Org2MSP", "org2.example.com");
  msp1 = buildChannelMsp({
    mspId: "Org1MSP",
    caCertPem: org1.ca.certificatePem,
    tlsCaCertPem: org1.tlsCa.certificatePem,
  });
  msp2 = buildChannelMsp({
    mspId: "Org2MSP",
    caCertPem: org2.ca.certificatePem,
    tlsCaCertPem: org2.tlsCa.certificatePem,
  });
  for (const o of ORDERERS) tlsCerts[o] = (await org1.tls(o)).certPem;
});

function input(): ChannelConfigInput {
  return {
    channelId: "mychannel",
    fabricVersion: "3.1.0",
    peerOrgs: [
      { msp: msp1, anchorPeers: [{ host: "peer0.org1.example.com", port: 7051 }] },
      { msp: msp2, anchorPeers: [{ host: "peer0.org2.example.com", port: 9051 }] },
    ],
    ordererOrgs: [{ msp: msp1, ordererEndpoints: ORDERERS.map((o, i) => `${o}:${7050 + i}`) }],
    consensus: {
      type: "etcdraft",
      consenters: ORDERERS.map((o, i) => ({
        host: o,
        port: 7050 + i,
        clientTlsCert: tlsCerts[o] as string,
        serverTlsCert: tlsCerts[o] as string,
      })),
    },
  };
}

describe.skipIf(!bins)("genesis block vs the real configtxlator and configtxgen", () => {
  it("configtxlator decodes our block to the config we meant, and to exactly our own configToJson", async () => {
    const config = buildChannelConfig(input());
    const block = genesisBlockFromConfig("mychannel", config);
    const file = join(root, "ours.block");
    writeFileSync(file, block.serializeBinary());
    const decoded = await decode(file);

    const env = get(decoded, "data", "data") as Json[];
    expect(env).toHaveLength(1);
    const payload = get(env[0] as Json, "payload");
    expect(get(payload, "header", "channel_header", "type")).toBe(common.HeaderType.CONFIG);
    expect(get(payload, "header", "channel_header", "channel_id")).toBe("mychannel");
    expect(get(decoded, "header", "number")).toBe("0");
    expect(get(decoded, "metadata", "metadata")).toEqual(["CgIKAA==", "", "", "", ""]);

    const cfg = get(payload, "data", "config");
    // Our JSON encoder is protolator, field for field.
    expect(configToJson(config)).toEqual(cfg);

    const ch = get(cfg, "channel_group");
    expect(Object.keys(get(ch, "groups") as JsonObject).sort()).toEqual(["Application", "Orderer"]);
    expect(get(ch, "values", "Capabilities", "value", "capabilities")).toEqual({ V2_0: {} });
    expect(get(ch, "policies", "Admins", "policy", "value")).toEqual({ rule: "MAJORITY", sub_policy: "Admins" });
    const app = get(ch, "groups", "Application");
    expect(Object.keys(get(app, "groups") as JsonObject).sort()).toEqual(["Org1MSP", "Org2MSP"]);
    expect(get(app, "policies", "LifecycleEndorsement", "policy", "value")).toEqual({
      rule: "MAJORITY",
      sub_policy: "Endorsement",
    });
    expect(get(app, "groups", "Org2MSP", "values", "AnchorPeers", "value")).toEqual({
      anchor_peers: [{ host: "peer0.org2.example.com", port: 9051 }],
    });
    const org1Admins = get(app, "groups", "Org1MSP", "policies", "Admins", "policy", "value", "identities") as Json[];
    expect(get(org1Admins[0] as Json, "principal")).toEqual({ msp_identifier: "Org1MSP", role: "ADMIN" });
    const mspJson = get(app, "groups", "Org1MSP", "values", "MSP", "value", "config");
    expect(get(mspJson, "name")).toBe("Org1MSP");
    expect(Buffer.from((get(mspJson, "root_certs") as string[])[0] as string, "base64").toString()).toContain(
      "BEGIN CERTIFICATE",
    );
    expect(get(mspJson, "fabric_node_ous", "enable")).toBe(true);

    const ord = get(ch, "groups", "Orderer");
    expect(get(ord, "values", "ConsensusType", "value", "type")).toBe("etcdraft");
    expect(get(ord, "values", "ConsensusType", "value", "state")).toBe("STATE_NORMAL");
    const md = get(ord, "values", "ConsensusType", "value", "metadata");
    expect((get(md, "consenters") as Json[]).map((c) => [get(c, "host"), get(c, "port")])).toEqual(
      ORDERERS.map((o, i) => [o, 7050 + i]),
    );
    expect(get(md, "options")).toEqual({
      election_tick: 10,
      heartbeat_tick: 1,
      max_inflight_blocks: 5,
      snapshot_interval_size: 16777216,
      tick_interval: "500ms",
    });
    expect(get(ord, "values", "BatchSize", "value")).toEqual({
      absolute_max_bytes: 10485760,
      max_message_count: 500,
      preferred_max_bytes: 2097152,
    });
    expect(get(ord, "values", "BatchTimeout", "value")).toEqual({ timeout: "2s" });
    expect(get(ord, "policies", "BlockValidation", "policy", "value")).toEqual({ rule: "ANY", sub_policy: "Writers" });
    expect(get(ord, "groups", "Org1MSP", "values", "Endpoints", "value", "addresses")).toEqual(
      ORDERERS.map((o, i) => `${o}:${7050 + i}`),
    );
  });

  it("configtxgen builds the same config from an equivalent configtx.yaml", async () => {
    const b = bins as NonNullable<typeof bins>;
    const dir = join(root, "configtxgen");
    // configtxgen reads MSP folders; write each org's (an admin identity fills signcerts).
    for (const org of [org1, org2]) {
      const admin = await org.identity(`admin.${org.mspId}`, "admin");
      await writeLocalMsp(join(dir, org.mspId, "msp"), {
        caCertPem: org.ca.certificatePem,
        tlsCaCertPem: org.tlsCa.certificatePem,
        signCertPem: admin.certPem,
        privateKeyPem: admin.keyPem,
      });
    }
    for (const o of ORDERERS) writeFileSync(join(dir, `${o}.crt`), tlsCerts[o] as string);
    const orgPolicies = (id: string): string => `
      Policies:
        Readers: { Type: Signature, Rule: "OR('${id}.member')" }
        Writers: { Type: Signature, Rule: "OR('${id}.member')" }
        Admins: { Type: Signature, Rule: "OR('${id}.admin')" }
        Endorsement: { Type: Signature, Rule: "OR('${id}.member')" }`;
    const yaml = `
Organizations:
  - &Org1
      Name: Org1MSP
      ID: Org1MSP
      MSPDir: ${join(dir, "Org1MSP", "msp")}${orgPolicies("Org1MSP")}
      OrdererEndpoints: [${ORDERERS.map((o, i) => `"${o}:${7050 + i}"`).join(", ")}]
      AnchorPeers: [{ Host: peer0.org1.example.com, Port: 7051 }]
  - &Org2
      Name: Org2MSP
      ID: Org2MSP
      MSPDir: ${join(dir, "Org2MSP", "msp")}${orgPolicies("Org2MSP")}
      AnchorPeers: [{ Host: peer0.org2.example.com, Port: 9051 }]
Profiles:
  Chan:
    Capabilities: { V2_0: true }
    Policies:
      Readers: { Type: ImplicitMeta, Rule: "ANY Readers" }
      Writers: { Type: ImplicitMeta, Rule: "ANY Writers" }
      Admins: { Type: ImplicitMeta, Rule: "MAJORITY Admins" }
    Orderer:
      OrdererType: etcdraft
      BatchTimeout: 2s
      BatchSize: { MaxMessageCount: 500, AbsoluteMaxBytes: 10 MB, PreferredMaxBytes: 2 MB }
      EtcdRaft:
        Consenters:
${ORDERERS.map((o, i) => `          - { Host: ${o}, Port: ${7050 + i}, ClientTLSCert: ${join(dir, `${o}.crt`)}, ServerTLSCert: ${join(dir, `${o}.crt`)} }`).join("\n")}
        Options: { TickInterval: 500ms, ElectionTick: 10, HeartbeatTick: 1, MaxInflightBlocks: 5, SnapshotIntervalSize: 16 MB }
      Organizations: [*Org1]
      Capabilities: { V2_0: true }
      Policies:
        Readers: { Type: ImplicitMeta, Rule: "ANY Readers" }
        Writers: { Type: ImplicitMeta, Rule: "ANY Writers" }
        Admins: { Type: ImplicitMeta, Rule: "MAJORITY Admins" }
        BlockValidation: { Type: ImplicitMeta, Rule: "ANY Writers" }
    Application:
      Organizations: [*Org1, *Org2]
      Capabilities: { V2_0: true }
      Policies:
        Readers: { Type: ImplicitMeta, Rule: "ANY Readers" }
        Writers: { Type: ImplicitMeta, Rule: "ANY Writers" }
        Admins: { Type: ImplicitMeta, Rule: "MAJORITY Admins" }
        LifecycleEndorsement: { Type: ImplicitMeta, Rule: "MAJORITY Endorsement" }
        Endorsement: { Type: ImplicitMeta, Rule: "MAJORITY Endorsement" }
`;
    writeFileSync(join(dir, "configtx.yaml"), yaml);
    const theirs = join(root, "configtxgen.block");
    const gen = await runBinary(b.path("configtxgen"), [
      "-profile",
      "Chan",
      "-channelID",
      "mychannel",
      "-outputBlock",
      theirs,
      "-configPath",
      dir,
    ]);
    expect(gen.code, gen.stderr).toBe(0);

    const ours = join(root, "ours2.block");
    writeFileSync(ours, genesisBlockFromConfig("mychannel", buildChannelConfig(input())).serializeBinary());
    const [a, t] = await Promise.all([decode(ours), decode(theirs)]);

    // Non-deterministic: the nonce, the tx id derived from it, the timestamp, and the data hash over them.
    const strip = (j: JsonObject): JsonObject => {
      const c = structuredClone(j);
      const payload = get(c, "data", "data", "0", "payload") as JsonObject;
      const ch = get(payload, "header", "channel_header") as JsonObject;
      for (const k of ["tx_id", "timestamp"]) {
        expect(typeof ch[k]).toBe("string");
        delete ch[k];
      }
      delete (get(payload, "header", "signature_header") as JsonObject).nonce;
      delete (get(c, "header") as JsonObject).data_hash;
      return c;
    };
    // Arrays read as data.data[0]: get() indexes arrays by string key too.
    expect(strip(a)).toEqual(strip(t));
    expect(readFileSync(theirs).length).toBeGreaterThan(1000);
  });

  it("BFT: configtxgen builds the same config (consenter mapping, smartbft options, derived BlockValidation)", async () => {
    const b = bins as NonNullable<typeof bins>;
    const dir = join(root, "configtxgen-bft");
    const admin = await org1.identity("admin.Org1MSP", "admin");
    await writeLocalMsp(join(dir, "msp"), {
      caCertPem: org1.ca.certificatePem,
      tlsCaCertPem: org1.tlsCa.certificatePem,
      signCertPem: admin.certPem,
      privateKeyPem: admin.keyPem,
    });
    const ids: string[] = [];
    for (const [i, o] of ORDERERS.entries()) {
      ids.push((await org1.identity(o, "orderer")).certPem);
      writeFileSync(join(dir, `${o}.crt`), tlsCerts[o] as string);
      writeFileSync(join(dir, `${o}.id.pem`), ids[i] as string);
    }
    const four = [...ORDERERS, "orderer3.org1.example.com"];
    tlsCerts["orderer3.org1.example.com"] = (await org1.tls("orderer3.org1.example.com")).certPem;
    writeFileSync(join(dir, "orderer3.org1.example.com.crt"), tlsCerts["orderer3.org1.example.com"] as string);
    ids.push((await org1.identity("orderer3.org1.example.com", "orderer")).certPem);
    writeFileSync(join(dir, "orderer3.org1.example.com.id.pem"), ids[3] as string);
    const implicit = (r: string): string => `{ Type: ImplicitMeta, Rule: "${r}" }`;
    const yaml = `
Organizations:
  - &Org1
      Name: Org1MSP
      ID: Org1MSP
      MSPDir: ${join(dir, "msp")}
      Policies:
        Readers: { Type: Signature, Rule: "OR('Org1MSP.member')" }
        Writers: { Type: Signature, Rule: "OR('Org1MSP.member')" }
        Admins: { Type: Signature, Rule: "OR('Org1MSP.admin')" }
        Endorsement: { Type: Signature, Rule: "OR('Org1MSP.member')" }
      OrdererEndpoints: [${four.map((o, i) => `"${o}:${7050 + i}"`).join(", ")}]
Profiles:
  Bft:
    Capabilities: { V3_0: true }
    Policies: { Readers: ${implicit("ANY Readers")}, Writers: ${implicit("ANY Writers")}, Admins: ${implicit("MAJORITY Admins")} }
    Orderer:
      OrdererType: BFT
      BatchTimeout: 2s
      BatchSize: { MaxMessageCount: 500, AbsoluteMaxBytes: 10 MB, PreferredMaxBytes: 2 MB }
      SmartBFT:
        RequestBatchMaxCount: 100
        RequestBatchMaxBytes: 10485760
        RequestBatchMaxInterval: 50ms
        IncomingMessageBufferSize: 200
        RequestPoolSize: 100000
        RequestForwardTimeout: 2s
        RequestComplainTimeout: 20s
        RequestAutoRemoveTimeout: 3m0s
        ViewChangeResendInterval: 5s
        ViewChangeTimeout: 20s
        LeaderHeartbeatTimeout: 1m0s
        LeaderHeartbeatCount: 10
        CollectTimeout: 1s
      ConsenterMapping:
${four.map((o, i) => `        - { ID: ${i + 1}, Host: ${o}, Port: ${7050 + i}, MSPID: Org1MSP, Identity: ${join(dir, `${o}.id.pem`)}, ClientTLSCert: ${join(dir, `${o}.crt`)}, ServerTLSCert: ${join(dir, `${o}.crt`)} }`).join("\n")}
      Organizations: [*Org1]
      Capabilities: { V2_0: true }
      Policies: { Readers: ${implicit("ANY Readers")}, Writers: ${implicit("ANY Writers")}, Admins: ${implicit("MAJORITY Admins")}, BlockValidation: ${implicit("ANY Writers")} }
    Application:
      Organizations: [*Org1]
      Capabilities: { V2_0: true }
      Policies: { Readers: ${implicit("ANY Readers")}, Writers: ${implicit("ANY Writers")}, Admins: ${implicit("MAJORITY Admins")}, LifecycleEndorsement: ${implicit("MAJORITY Endorsement")}, Endorsement: ${implicit("MAJORITY Endorsement")} }
`;
    writeFileSync(join(dir, "configtx.yaml"), yaml);
    const theirs = join(root, "configtxgen-bft.block");
    const gen = await runBinary(b.path("configtxgen"), [
      "-profile",
      "Bft",
      "-channelID",
      "bftchannel",
      "-outputBlock",
      theirs,
      "-configPath",
      dir,
    ]);
    expect(gen.code, gen.stderr).toBe(0);
    const config = buildChannelConfig({
      channelId: "bftchannel",
      fabricVersion: "3.1.0",
      peerOrgs: [{ msp: msp1 }],
      ordererOrgs: [{ msp: msp1, ordererEndpoints: four.map((o, i) => `${o}:${7050 + i}`) }],
      consensus: {
        type: "BFT",
        consenters: four.map((o, i) => ({
          id: i + 1,
          host: o,
          port: 7050 + i,
          mspId: "Org1MSP",
          identity: ids[i] as string,
          clientTlsCert: tlsCerts[o] as string,
          serverTlsCert: tlsCerts[o] as string,
        })),
      },
    });
    const t = await decode(theirs);
    expect(configToJson(config)).toEqual(get(t, "data", "data", "0", "payload", "data", "config"));
    // 4 consenters: f = 1, quorum 3.
    expect(
      get(
        configToJson(config),
        "channel_group",
        "groups",
        "Orderer",
        "policies",
        "BlockValidation",
        "policy",
        "value",
        "rule",
      ),
    ).toMatchObject({
      n_out_of: { n: 3 },
    });
  });
});
