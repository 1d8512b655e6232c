import { peer } from "@hyperledger/fabric-protos";
import { describe, expect, it } from "vitest";
import { signaturePolicyFromDsl } from "./configtx/policies.js";
import { endorsementPolicyOf } from "./peer-client.js";

describe("endorsement policy of a committed definition", () => {
  it("reads a signature policy as DSL and a channel policy reference as its path", () => {
    const sig = new peer.ApplicationPolicy();
    sig.setSignaturePolicy(signaturePolicyFromDsl("AND('Org1MSP.peer', 'Org2MSP.peer')"));
    expect(endorsementPolicyOf(sig.serializeBinary())).toBe("AND('Org1MSP.peer', 'Org2MSP.peer')");
    const ref = new peer.ApplicationPolicy();
    ref.setChannelConfigPolicyReference("/Channel/Application/Endorsement");
    expect(endorsementPolicyOf(ref.serializeBinary())).toBe("/Channel/Application/Endorsement");
    expect(endorsementPolicyOf(new Uint8Array())).toBe("");
  });
});
