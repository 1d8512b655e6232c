import { describe, expect, it } from "vitest";
import {
  newDraft,
  previewChanges,
  proposalTypeOf,
  toOperations,
  validateDraft,
  validateDrafts,
  type DraftContext,
  type OperationDraft,
} from "@/pages/governance/proposal-form";

const ctx: DraftContext = {
  channelOrgs: ["Org1MSP", "Org2MSP", "OrdererMSP"],
  current: { batchTimeout: "2s", maxMessageCount: 500 },
  externalOrgs: [{ id: 4, mspId: "Org3MSP" }],
};

describe("operation editors' validation", () => {
  it("requires a choice of organization", () => {
    expect(validateDraft(newDraft("add_org"), ctx)).toEqual({ externalOrgId: "Choose an organization" });
    expect(validateDraft(newDraft("remove_org"), ctx)).toEqual({ mspId: "Choose an organization" });
    expect(validateDraft({ kind: "remove_org", mspId: "GoneMSP" }, ctx)).toEqual({
      mspId: "GoneMSP is not an organization of the channel",
    });
  });

  it("checks anchor peers are host:port", () => {
    const d: OperationDraft = { kind: "anchor_peers", mspId: "Org1MSP", peers: "peer0:7051, peer1" };
    expect(validateDraft(d, ctx)).toEqual({ peers: "peer1 is not host:port" });
    expect(validateDraft({ ...d, peers: "peer0:99999" }, ctx)).toEqual({ peers: "peer0:99999 is not host:port" });
    expect(validateDraft({ ...d, peers: "" }, ctx)).toEqual({});
  });

  it("checks batch settings like the channel config tab and refuses an unchanged one", () => {
    const d = newDraft("batch", ctx.current);
    expect(d).toMatchObject({ batchTimeout: "2s", maxMessageCount: "500" });
    expect(validateDraft(d, ctx)).toEqual({ batchTimeout: "Nothing changed from the current settings" });
    expect(validateDraft({ ...d, batchTimeout: "soon", maxMessageCount: "0" } as OperationDraft, ctx)).toEqual({
      batchTimeout: "A duration such as 2s or 500ms",
      maxMessageCount: "A positive whole number",
    });
    expect(validateDraft({ ...d, batchTimeout: "1s" } as OperationDraft, ctx)).toEqual({});
  });

  it("checks a policy's name and an ImplicitMeta rule", () => {
    const d = newDraft("policy");
    expect(validateDraft(d, ctx)).toEqual({ policyName: "Policy name is required", rule: "Rule is required" });
    expect(validateDraft({ ...d, policyName: "Admins", rule: "SOME Admins" } as OperationDraft, ctx).rule).toMatch(
      /ANY, ALL or MAJORITY/,
    );
    expect(validateDraft({ ...d, policyName: "Admins", rule: "ANY Admins" } as OperationDraft, ctx)).toEqual({});
  });

  it("collects errors per editor index", () => {
    expect(validateDrafts([{ kind: "remove_org", mspId: "Org1MSP" }, newDraft("add_org")], ctx)).toEqual({
      1: { externalOrgId: "Choose an organization" },
    });
  });
});

describe("operations and preview", () => {
  const drafts: OperationDraft[] = [
    { kind: "add_org", externalOrgId: "4" },
    { kind: "remove_org", mspId: "Org2MSP" },
    { kind: "anchor_peers", mspId: "Org1MSP", peers: "peer0.org1:7051" },
    { kind: "batch", batchTimeout: "1s", maxMessageCount: "500", absoluteMaxBytes: "", preferredMaxBytes: "" },
    { kind: "policy", scope: "application", policyName: "Admins", policyType: "ImplicitMeta", rule: "ANY Admins" },
  ];

  it("become the request's operations in order", () => {
    expect(toOperations(drafts, ctx)).toEqual([
      { type: "add_org", payload: { external_organization_id: 4 } },
      { type: "remove_org", payload: { msp_id: "Org2MSP" } },
      { type: "set_anchor_peers", payload: { msp_id: "Org1MSP", anchor_peers: [{ host: "peer0.org1", port: 7051 }] } },
      { type: "update_batch_timeout", payload: { timeout: "1s" } },
      {
        type: "update_application_policy",
        payload: { policy_name: "Admins", policy: { type: "ImplicitMeta", rule: "ANY Admins" } },
      },
    ]);
    expect(proposalTypeOf(drafts)).toBe("multiple");
    expect(proposalTypeOf([drafts[0]!])).toBe("add_org");
  });

  it("preview what they change at the server's element paths", () => {
    const A = "channel_group.groups.Application";
    expect(previewChanges(drafts, ctx)).toEqual([
      { kind: "added", path: `${A}.groups.Org3MSP` },
      { kind: "removed", path: `${A}.groups.Org2MSP` },
      { kind: "changed", path: `${A}.groups.Org1MSP.values.AnchorPeers`, after: "peer0.org1:7051" },
      {
        kind: "changed",
        path: "channel_group.groups.Orderer.values.BatchTimeout.value.timeout",
        before: "2s",
        after: "1s",
      },
      { kind: "changed", path: `${A}.policies.Admins.policy`, after: "ANY Admins" },
    ]);
  });
});
