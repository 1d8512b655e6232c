import { common } from "@hyperledger/fabric-protos";
import { describe, expect, it } from "vitest";
import { evaluatePolicy, evaluateUpdatePolicies } from "./mod-policy.js";
import { encodePolicy } from "./policies.js";
import { computeConfigUpdate } from "./update.js";
import { cloneConfig } from "./operations.js";
import type { PolicyInput } from "./types.js";

function policy(p: PolicyInput, mod = "Admins"): common.ConfigPolicy {
  const cp = new common.ConfigPolicy();
  cp.setModPolicy(mod);
  cp.setPolicy(encodePolicy(p));
  return cp;
}

/** A channel with an Application group of `orgs`, each with an `<msp>.admin` Admins policy. */
function channel(orgs: string[], appAdmins: PolicyInput): common.Config {
  const app = new common.ConfigGroup();
  app.setModPolicy("Admins");
  app.getPoliciesMap().set("Admins", policy(appAdmins));
  for (const m of orgs) {
    const g = new common.ConfigGroup();
    g.setModPolicy("Admins");
    g.getPoliciesMap().set("Admins", policy({ type: "Signature", rule: `OR('${m}.admin')` }));
    app.getGroupsMap().set(m, g);
  }
  const root = new common.ConfigGroup();
  root.setModPolicy("Admins");
  root.getGroupsMap().set("Application", app);
  const c = new common.Config();
  c.setChannelGroup(root);
  return c;
}

const three = ["Org1MSP", "Org2MSP", "Org3MSP"];
const path = "/Channel/Application/Admins";

describe("mod policy evaluation", () => {
  it("MAJORITY Admins of three orgs needs two", () => {
    const c = channel(three, { type: "ImplicitMeta", rule: "MAJORITY Admins" });
    const one = evaluatePolicy(c, path, new Set(["Org1MSP"]));
    expect(one).toMatchObject({ required: 2, satisfied: false, signed: ["Org1MSP"], rule: "MAJORITY Admins" });
    expect(one.missing).toEqual(["Org2MSP", "Org3MSP"]);
    expect(evaluatePolicy(c, path, new Set(["Org1MSP", "Org3MSP"])).satisfied).toBe(true);
  });

  it("ANY needs one and ALL needs every org", () => {
    const any = channel(three, { type: "ImplicitMeta", rule: "ANY Admins" });
    expect(evaluatePolicy(any, path, new Set()).satisfied).toBe(false);
    expect(evaluatePolicy(any, path, new Set(["Org2MSP"]))).toMatchObject({ required: 1, satisfied: true });
    const all = channel(three, { type: "ImplicitMeta", rule: "ALL Admins" });
    expect(evaluatePolicy(all, path, new Set(["Org1MSP", "Org2MSP"]))).toMatchObject({
      required: 3,
      satisfied: false,
      missing: ["Org3MSP"],
    });
    expect(evaluatePolicy(all, path, new Set(three)).satisfied).toBe(true);
  });

  it("a Signature policy counts n of its principals; a non-admin signer of another org doesn't count", () => {
    const c = channel(three, {
      type: "Signature",
      rule: "OutOf(2, 'Org1MSP.admin', 'Org2MSP.admin', 'Org3MSP.member')",
    });
    expect(evaluatePolicy(c, path, new Set(["Org3MSP"]))).toMatchObject({ required: 2, satisfied: false });
    expect(evaluatePolicy(c, path, new Set(["Org3MSP", "Org9MSP"])).satisfied).toBe(false);
    expect(evaluatePolicy(c, path, new Set(["Org2MSP", "Org3MSP"])).satisfied).toBe(true);
    const and = channel(three, { type: "Signature", rule: "AND('Org1MSP.admin', 'Org2MSP.admin')" });
    expect(evaluatePolicy(and, path, new Set(["Org1MSP"])).missing).toEqual(["Org2MSP"]);
  });

  it("adding an org to Application is governed by /Channel/Application/Admins, summarised as 'n of m orgs signed'", () => {
    const c = channel(three, { type: "ImplicitMeta", rule: "MAJORITY Admins" });
    const updated = cloneConfig(c);
    const org4 = new common.ConfigGroup();
    org4.setModPolicy("Admins");
    updated.getChannelGroup()?.getGroupsMap().get("Application")?.getGroupsMap().set("Org4MSP", org4);
    const update = computeConfigUpdate("ch", c, updated);
    const v1 = evaluateUpdatePolicies(c, update, ["Org1MSP"]);
    expect(v1.policies.map((p) => p.path)).toEqual([path]);
    expect(v1).toMatchObject({ satisfied: false, summary: "1 of 3 orgs signed", missing: ["Org2MSP", "Org3MSP"] });
    expect(evaluateUpdatePolicies(c, update, ["Org1MSP", "Org2MSP"])).toMatchObject({
      satisfied: true,
      summary: "2 of 3 orgs signed",
    });
  });
});
