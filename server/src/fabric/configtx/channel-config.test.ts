import { common, msp as mspProtos, orderer } from "@hyperledger/fabric-protos";
import { beforeAll, describe, expect, it } from "vitest";
import { buildChannelMsp, type ChannelMspConfig } from "../msp/index.js";
import { createTestOrg, type TestOrg } from "../test-support/org-fixtures.js";
import { buildChannelConfig } from "./channel-config.js";
import { configToJson } from "./config-json.js";
import { ConfigtxInputError } from "./errors.js";
import { buildGenesisBlock } from "./genesis.js";
import { signaturePolicyFromDsl } from "./policies.js";
import type { ChannelConfigInput } from "./types.js";

let org: TestOrg;
let msp1: ChannelMspConfig;
let tls: string;

beforeAll(async () => {
  org = await createTestOrg("Org1MSP", "org1.example.com");
  msp1 = buildChannelMsp({
    mspId: "Org1MSP",
    caCertPem: org.ca.certificatePem,
    tlsCaCertPem: org.tlsCa.certificatePem,
  });
  tls = (await org.tls("orderer0")).certPem;
});

function base(): ChannelConfigInput {
  return {
    channelId: "mychannel",
    fabricVersion: "3.1.0",
    peerOrgs: [{ msp: msp1 }],
    ordererOrgs: [{ msp: msp1, ordererEndpoints: ["orderer0:7050"] }],
    consensus: {
      type: "etcdraft",
      consenters: [{ host: "orderer0", port: 7050, clientTlsCert: tls, serverTlsCert: tls }],
    },
  };
}

function errorOf(fn: () => unknown): ConfigtxInputError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ConfigtxInputError) return e;
    throw e;
  }
  throw new Error("expected a ConfigtxInputError");
}

describe("channel config input errors", () => {
  it.each([
    ["MyChannel", "uppercase"],
    ["1chan", "starts with a digit"],
    ["chan_1", "underscore"],
    ["", "empty"],
    ["a".repeat(250), "250 characters"],
  ])("rejects channel name %j (%s)", (channelId) => {
    expect(errorOf(() => buildChannelConfig({ ...base(), channelId })).field).toBe("channelId");
  });

  it("accepts dots, dashes and digits after the first letter", () => {
    expect(() => buildChannelConfig({ ...base(), channelId: "a".repeat(249) })).not.toThrow();
    expect(() => buildChannelConfig({ ...base(), channelId: "my-chan.2" })).not.toThrow();
  });

  it("rejects orderers without TLS certs", () => {
    const noTlsCa = { ...msp1, tlsRootCerts: [] };
    expect(
      errorOf(() => buildChannelConfig({ ...base(), ordererOrgs: [{ msp: noTlsCa, ordererEndpoints: ["o:7050"] }] }))
        .field,
    ).toBe("ordererOrgs[0].msp.tlsRootCerts");
    const noCert = base();
    noCert.consensus = {
      type: "etcdraft",
      consenters: [{ host: "o", port: 7050, clientTlsCert: "", serverTlsCert: tls }],
    };
    expect(errorOf(() => buildChannelConfig(noCert)).field).toBe("consensus.consenters[0].clientTlsCert");
  });

  it("rejects BFT on Fabric 2.5, and BFT without the V3_0 channel capability", async () => {
    const id = (await org.identity("orderer0", "orderer")).certPem;
    const bft = (): ChannelConfigInput => ({
      ...base(),
      consensus: {
        type: "BFT",
        consenters: [
          {
            id: 1,
            host: "orderer0",
            port: 7050,
            mspId: "Org1MSP",
            identity: id,
            clientTlsCert: tls,
            serverTlsCert: tls,
          },
        ],
      },
    });
    const e = errorOf(() => buildChannelConfig({ ...bft(), fabricVersion: "2.5.16" }));
    expect([e.field, e.message]).toEqual(["consensus.type", "BFT needs Fabric 3.x; the orderers run 2.5.16"]);
    expect(errorOf(() => buildChannelConfig({ ...bft(), capabilities: { channel: ["V2_0"] } })).field).toBe(
      "capabilities.channel",
    );
    // A valid BFT config: V3_0, Orderers mapping, smartbft metadata, BlockValidation from the consenters.
    const json = configToJson(buildChannelConfig(bft())) as {
      channel_group: { groups: { Orderer: unknown }; values: unknown };
    };
    expect(json.channel_group.values).toMatchObject({ Capabilities: { value: { capabilities: { V3_0: {} } } } });
    expect(json.channel_group.groups.Orderer).toMatchObject({
      values: {
        ConsensusType: { value: { type: "BFT", metadata: { request_batch_max_count: "100" } } },
        Orderers: { value: { consenter_mapping: [{ id: 1, msp_id: "Org1MSP", host: "orderer0", port: 7050 }] } },
      },
      policies: { BlockValidation: { policy: { type: 1, value: { rule: { n_out_of: { n: 1 } } } } } },
    });
  });

  it("rejects empty consenters, duplicate MSP ids and duplicate consenters", () => {
    expect(
      errorOf(() => buildChannelConfig({ ...base(), consensus: { type: "etcdraft", consenters: [] } })).field,
    ).toBe("consensus.consenters");
    expect(errorOf(() => buildChannelConfig({ ...base(), peerOrgs: [{ msp: msp1 }, { msp: msp1 }] })).field).toBe(
      "peerOrgs[1].msp.name",
    );
    const c = { host: "o", port: 7050, clientTlsCert: tls, serverTlsCert: tls };
    expect(
      errorOf(() => buildChannelConfig({ ...base(), consensus: { type: "etcdraft", consenters: [c, c] } })).field,
    ).toBe("consensus.consenters[1]");
  });

  it("rejects bad batch settings, durations and policy rules", () => {
    expect(errorOf(() => buildChannelConfig({ ...base(), batchTimeout: "2 seconds" })).field).toBe("batchTimeout");
    expect(errorOf(() => buildChannelConfig({ ...base(), batchSize: { maxMessageCount: 0 } })).field).toBe(
      "batchSize.maxMessageCount",
    );
    expect(
      errorOf(() =>
        buildChannelConfig({
          ...base(),
          applicationPolicies: { Admins: { type: "Signature", rule: "OR('Org1MSP.boss')" } },
        }),
      ).field,
    ).toBe("applicationPolicies.Admins");
    expect(
      errorOf(() =>
        buildChannelConfig({ ...base(), channelPolicies: { Admins: { type: "ImplicitMeta", rule: "SOME Admins" } } }),
      ).field,
    ).toBe("channelPolicies.Admins");
  });
});

describe("channel config content", () => {
  it("overrides policies by name and keeps the other defaults", () => {
    const config = buildChannelConfig({
      ...base(),
      applicationPolicies: { Endorsement: { type: "Signature", rule: "AND('Org1MSP.peer', 'Org1MSP.admin')" } },
      batchTimeout: "1s",
      batchSize: { maxMessageCount: 10 },
    });
    const app = config.getChannelGroup()?.getGroupsMap().get("Application") as common.ConfigGroup;
    expect(app.getPoliciesMap().get("Endorsement")?.getPolicy()?.getType()).toBe(common.Policy.PolicyType.SIGNATURE);
    expect(app.getPoliciesMap().get("LifecycleEndorsement")?.getPolicy()?.getType()).toBe(
      common.Policy.PolicyType.IMPLICIT_META,
    );
    const ord = config.getChannelGroup()?.getGroupsMap().get("Orderer") as common.ConfigGroup;
    const bs = orderer.BatchSize.deserializeBinary(ord.getValuesMap().get("BatchSize")?.getValue_asU8() as Uint8Array);
    expect([bs.getMaxMessageCount(), bs.getAbsoluteMaxBytes()]).toEqual([10, 10485760]);
  });

  it("encodes batch sizes as Fabric's uint32, up to 2^32-1 (the Terraform provider's default is 103809024)", () => {
    const config = buildChannelConfig({
      ...base(),
      batchSize: { absoluteMaxBytes: 2 ** 32 - 1, preferredMaxBytes: 103809024 },
    });
    const ord = config.getChannelGroup()?.getGroupsMap().get("Orderer") as common.ConfigGroup;
    const bs = orderer.BatchSize.deserializeBinary(ord.getValuesMap().get("BatchSize")?.getValue_asU8() as Uint8Array);
    expect([bs.getAbsoluteMaxBytes(), bs.getPreferredMaxBytes()]).toEqual([4294967295, 103809024]);
  });

  it("encodes the policy DSL as policydsl does (one identity per occurrence, in order)", () => {
    const env = signaturePolicyFromDsl("OutOf(2, 'A.member', AND('B.admin', 'C.peer'), 'A.member')");
    expect(env.getIdentitiesList()).toHaveLength(4);
    const role = mspProtos.MSPRole.deserializeBinary(env.getIdentitiesList()[2]?.getPrincipal_asU8() as Uint8Array);
    expect([role.getMspIdentifier(), role.getRole()]).toEqual(["C", mspProtos.MSPRole.MSPRoleType.PEER]);
    const root = env.getRule()?.getNOutOf();
    expect(root?.getN()).toBe(2);
    expect(
      root
        ?.getRulesList()[1]
        ?.getNOutOf()
        ?.getRulesList()
        .map((r) => r.getSignedBy()),
    ).toEqual([1, 2]);
  });

  it("wraps the config in a genesis block with a valid data hash", () => {
    const block = buildGenesisBlock(base());
    expect(block.getHeader()?.getNumber()).toBe(0);
    expect(block.getData()?.getDataList()).toHaveLength(1);
    expect(block.getMetadata()?.getMetadataList()).toHaveLength(5);
  });
});
