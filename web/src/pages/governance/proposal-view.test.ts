import { describe, expect, it } from "vitest";
import { peerB } from "@/test-support/federation-fixtures";
import { proposal } from "@/test-support/governance-fixtures";
import {
  diffSummary,
  displayStatus,
  eventView,
  policyProgress,
  policyVerdict,
  proposalPath,
  proposerConnection,
  signableOrgs,
} from "@/pages/governance/proposal-view";

describe("policyProgress", () => {
  it("reads '1 of 3' against MAJORITY (2 required): one more needed, the mark at two thirds", () => {
    const p = policyProgress(proposal.policy);
    expect(p).toMatchObject({ signed: 1, total: 3, required: 2, remaining: 1, percent: 33, requiredPercent: 67 });
    expect(policyVerdict(p)).toBe("1 more signature needed (2 required)");
  });

  it("says the policy is met once satisfied, whatever is still unsigned", () => {
    const p = policyProgress({
      ...proposal.policy,
      signed: ["Org1MSP", "Org2MSP"],
      missing: [],
      satisfied: true,
      summary: "2 of 3 orgs signed",
    });
    expect(p).toMatchObject({ signed: 2, total: 3, remaining: 0, percent: 67 });
    expect(policyVerdict(p)).toBe("Policy met: ready to submit");
  });

  it("falls back to the lists when the summary has no count, and never divides by zero", () => {
    const p = policyProgress({ rule: "", required: 0, signed: [], missing: [], satisfied: false, summary: "" });
    expect(p).toMatchObject({ signed: 0, total: 1, percent: 0, summary: "0 of 1 orgs signed" });
    const q = policyProgress({ ...proposal.policy, summary: "whatever" });
    expect(q).toMatchObject({ signed: 1, total: 3 });
  });
});

describe("diff", () => {
  it("counts the server's changes by kind", () => {
    expect(diffSummary([{ kind: "added" }, { kind: "changed" }, { kind: "removed" }, { kind: "removed" }])).toBe(
      "1 added, 1 changed, 2 removed",
    );
    expect(diffSummary([])).toBe("No changes");
  });
});

describe("proposal helpers", () => {
  it("shows a pending proposal the server marked stale as stale", () => {
    expect(displayStatus({ status: "pending", stale: true })).toBe("stale");
    expect(displayStatus({ status: "submitted", stale: true })).toBe("submitted");
  });

  it("finds the proposer's connection by node id, a live one first and never a revoked one", () => {
    const p = { origin_node_id: "cl-bbbb" };
    expect(proposerConnection(p, [{ ...peerB, id: 1, status: "revoked" }])).toBeUndefined();
    expect(proposerConnection(p, [{ ...peerB, id: 2, status: "unreachable" }, peerB])?.id).toBe(7);
    expect(proposerConnection({ origin_node_id: "" }, [peerB])).toBeUndefined();
  });

  it("offers only the held orgs that the policy counts", () => {
    expect(signableOrgs(proposal.policy, [{ mspId: "Org2MSP" }, { mspId: "OtherMSP" }, { mspId: "Org1MSP" }])).toEqual([
      "Org1MSP",
      "Org2MSP",
    ]);
  });

  it("words timeline events from their data", () => {
    expect(eventView({ event_type: "signature_added", data: '{"msp_id":"Org1MSP","by":"admin"}' })).toEqual({
      title: "Signed",
      detail: "as Org1MSP by admin",
    });
    expect(eventView({ event_type: "proposal_shared", data: '{"to_node_id":"cl-b"}' }).detail).toBe("to cl-b");
    expect(eventView({ event_type: "something_new", data: "not json" })).toEqual({
      title: "something new",
      detail: "",
    });
  });

  it("links a proposal without a local network to its sign page", () => {
    expect(proposalPath({ id: "p", network_id: 12 })).toBe("/networks/12/fabric/proposals/p");
    expect(proposalPath({ id: "p", network_id: 0 })).toBe("/networks/fabric/proposals/p/sign");
  });
});
