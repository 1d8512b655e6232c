import { describe, expect, it } from "vitest";
import { signaturePolicyFromDsl, signaturePolicyToDsl } from "./policies.js";

describe("signature policy DSL round trip", () => {
  it.each([
    ["AND('Org1MSP.member', 'Org2MSP.member')", "AND('Org1MSP.member', 'Org2MSP.member')"],
    [
      "OR('Org1MSP.peer', AND('Org2MSP.admin', 'Org3MSP.client'))",
      "OR('Org1MSP.peer', AND('Org2MSP.admin', 'Org3MSP.client'))",
    ],
    ["OutOf(2, 'A.member', 'B.member', 'C.orderer')", "OutOf(2, 'A.member', 'B.member', 'C.orderer')"],
    // A bare principal is wrapped as 1-out-of-1, as Fabric's policydsl does.
    ["'Org1MSP.member'", "OR('Org1MSP.member')"],
  ])("%s", (dsl, back) => {
    expect(signaturePolicyToDsl(signaturePolicyFromDsl(dsl))).toBe(back);
  });
});
