import { common } from "@hyperledger/fabric-protos";
import { describe, expect, it } from "vitest";
import { configFromBlock } from "../deliver.js";
import { createSigningIdentity } from "../identity.js";
import { buildChannelMsp } from "../msp/index.js";
import { createTestOrg, type TestOrg } from "../test-support/org-fixtures.js";
import { buildGenesisBlock } from "./genesis.js";
import { createConfigUpdateEnvelope, signConfigUpdate } from "./update.js";
import { verifyConfigSignature } from "./verify-signature.js";

const org1 = await createTestOrg("Ver1MSP", "ver1.example.com");
const org2 = await createTestOrg("Ver2MSP", "ver2.example.com");
const msp = (o: TestOrg) =>
  buildChannelMsp({ mspId: o.mspId, caCertPem: o.ca.certificatePem, tlsCaCertPem: o.tlsCa.certificatePem });
const block = buildGenesisBlock({
  channelId: "verchannel",
  fabricVersion: "3.1.0",
  peerOrgs: [{ msp: msp(org1) }],
  ordererOrgs: [{ msp: msp(org1), ordererEndpoints: ["orderer0.ver1.example.com:7050"] }],
  consensus: {
    type: "etcdraft",
    consenters: [
      {
        host: "orderer0.ver1.example.com",
        port: 7050,
        clientTlsCert: org1.tlsCa.certificatePem,
        serverTlsCert: org1.tlsCa.certificatePem,
      },
    ],
  },
});
const config = configFromBlock(block);
const update = new common.ConfigUpdate();
update.setChannelId("verchannel");
const envelope = createConfigUpdateEnvelope(update);
const bytes = envelope.getConfigUpdate_asU8();

async function sign(o: TestOrg, ou: "admin" | "client", mspId = o.mspId) {
  const pair = await o.identity(`${ou}@${o.mspId}`, ou);
  return signConfigUpdate(envelope, createSigningIdentity({ mspId, certPem: pair.certPem, privateKey: pair.keyPem }));
}

describe("verifying an org admin's config signature against the channel MSP", () => {
  it("accepts an admin of the org over the exact update bytes", async () => {
    const admin = await sign(org1, "admin");
    expect(() => verifyConfigSignature(config, bytes, admin, "Ver1MSP")).not.toThrow();
  });

  it("refuses a non-admin, a foreign CA, other bytes, another org's name and an org not in the channel", async () => {
    const client = await sign(org1, "client");
    expect(() => verifyConfigSignature(config, bytes, client, "Ver1MSP")).toThrow(/not an admin of Ver1MSP/);
    const foreign = await sign(org2, "admin", "Ver1MSP");
    expect(() => verifyConfigSignature(config, bytes, foreign, "Ver1MSP")).toThrow(/not issued by Ver1MSP's CA/);
    const admin = await sign(org1, "admin");
    const other = new Uint8Array([...bytes, 1]);
    expect(() => verifyConfigSignature(config, other, admin, "Ver1MSP")).toThrow(/does not verify/);
    expect(() => verifyConfigSignature(config, bytes, admin, "Ver2MSP")).toThrow(/belongs to Ver1MSP, not Ver2MSP/);
    const outsider = await sign(org2, "admin");
    expect(() => verifyConfigSignature(config, bytes, outsider, "Ver2MSP")).toThrow(
      /not an organization of the channel/,
    );
  });
});
