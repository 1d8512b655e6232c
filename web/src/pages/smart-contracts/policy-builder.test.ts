import { describe, expect, it } from "vitest";
import { buildPolicy, policyOrgs } from "@/pages/smart-contracts/policy-builder";

describe("policy builder", () => {
  it("writes AND, OR and OutOf rules the peer reads", () => {
    expect(buildPolicy({ orgs: ["Org1MSP", "Org2MSP"], role: "peer", rule: "AND" })).toBe(
      "AND('Org1MSP.peer', 'Org2MSP.peer')",
    );
    expect(buildPolicy({ orgs: ["Org1MSP"], role: "member", rule: "OR" })).toBe("OR('Org1MSP.member')");
    expect(buildPolicy({ orgs: ["A", "B", "C"], role: "admin", rule: "OUTOF", n: 2 })).toBe(
      "OutOf(2, 'A.admin', 'B.admin', 'C.admin')",
    );
    expect(buildPolicy({ orgs: ["A"], role: "peer", rule: "OUTOF", n: 5 })).toBe("OutOf(1, 'A.peer')");
    expect(buildPolicy({ orgs: [], role: "peer", rule: "AND" })).toBe("");
  });

  it("reads the orgs a policy names", () => {
    expect(policyOrgs("AND('Org1MSP.peer', OR('Org2MSP.member','Org1MSP.admin'))")).toEqual(["Org1MSP", "Org2MSP"]);
    expect(policyOrgs("/Channel/Application/Endorsement")).toEqual([]);
  });
});
