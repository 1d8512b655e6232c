import { isValidElement, type ReactElement, type ReactNode } from "react";
import { describe, expect, it, vi, beforeEach } from "vitest";
import { ApiError } from "@/api/errors";
import { acceptChaincodeProposal } from "@/data/chaincode-proposals/chaincode-proposal-accept-mutation";
import { commitProposalDefinition } from "@/data/chaincode-proposals/chaincode-proposal-commit-mutation";
import { chaincodeProposalKeys } from "@/data/chaincode-proposals/keys";
import type { ChaincodeProposal } from "@/data/chaincode-proposals/types";
import { shareChaincodeProposal } from "@/data/chaincode-proposals/chaincode-proposal-share-mutation";
import type { FabricNetworkNode } from "@/data/fabric-networks/types";
import {
  canAccept,
  canCommit,
  commitBlockedReason,
  commitPeers,
  commitReadiness,
} from "@/pages/networks/proposals/chaincode-proposal-view";
import { ChaincodeProposalsSection } from "@/pages/networks/proposals/ChaincodeProposalsSection";
import { ProposalActions } from "@/pages/networks/proposals/ProposalActions";
import { asRole, failing, screenHtml, screenText, seed, type Seed } from "@/test-support/static-screen";

// The typed client takes fetch when it is created, so the stand-in goes in before any import runs.
const http = await vi.hoisted(async () => (await import("@/test-support/fetch-mock")).installFetchMock());

const received: ChaincodeProposal = {
  id: 5,
  chaincodeDefId: "basic-1.0-2-ab12",
  name: "basic",
  networkId: 3,
  channelName: "mychannel",
  version: "1.0",
  sequence: 2,
  endorsementPolicy: "",
  dockerImage: "",
  chaincodeAddress: "",
  status: "received",
  connectionId: 7,
  sharedBy: "alice@cl-bbbb",
  sharedByNodeId: "cl-bbbb",
  createdAt: "2026-11-25T10:00:00Z",
  updatedAt: "2026-11-25T10:00:00Z",
  initRequired: false,
  sourceType: "node",
  sourceSha256: "ab12",
  definitionId: null,
  chaincodeId: null,
  error: "",
  approvals: {},
  sharedWith: [],
};
const accepted: ChaincodeProposal = {
  ...received,
  id: 6,
  name: "assets",
  status: "accepted",
  definitionId: 40,
  chaincodeId: 12,
  approvals: { Org1MSP: true, Org2MSP: true, Org3MSP: false },
};

const list = (proposals: ChaincodeProposal[]): Seed => seed(chaincodeProposalKeys.list(3), proposals);
const section = <ChaincodeProposalsSection networkId={3} />;
const text = (...seeds: Seed[]): string => screenText(section, "/", "/", ...seeds);
const html = (...seeds: Seed[]): string => screenHtml(section, "/", "/", ...seeds);

/** The first element in a rendered tree whose aria-label starts with `label` (hook-free components only). */
function findByLabel(node: ReactNode, label: string): ReactElement<Record<string, unknown>> | undefined {
  if (Array.isArray(node)) {
    for (const n of node as ReactNode[]) {
      const hit = findByLabel(n, label);
      if (hit) return hit;
    }
    return undefined;
  }
  if (!isValidElement<Record<string, unknown>>(node)) return undefined;
  const aria = node.props["aria-label"];
  if (typeof aria === "string" && aria.startsWith(label)) return node;
  return findByLabel(node.props.children as ReactNode, label);
}

beforeEach(() => http.reset());

describe("commit readiness", () => {
  it("needs a majority of the orgs in approvals", () => {
    expect(commitReadiness({ A: true, B: true, C: false })).toMatchObject({ approved: 2, total: 3, enough: true });
    expect(commitReadiness({ A: true, B: false, C: false })).toMatchObject({ needed: 2, enough: false });
    expect(commitReadiness({ A: true, B: true, C: false, D: false }).enough).toBe(false);
    expect(commitReadiness({ A: true, B: true, C: true, D: false }).enough).toBe(true);
    expect(commitReadiness({ A: true }).enough).toBe(true);
    expect(commitReadiness({}).enough).toBe(false);
    expect(commitReadiness({ A: true, B: false }).missing).toEqual(["B"]);
  });

  it("also needs the local definition and a state that is not committed or accepting", () => {
    expect(canCommit(accepted)).toBe(true);
    expect(canCommit({ ...accepted, definitionId: null })).toBe(false);
    expect(canCommit({ ...accepted, status: "committed" })).toBe(false);
    expect(canCommit({ ...accepted, status: "accepting" })).toBe(false);
    expect(commitBlockedReason({ ...accepted, approvals: { Org1MSP: true, Org2MSP: false, Org3MSP: false } })).toBe(
      "1 of 3 orgs approved; 2 needed",
    );
    expect(commitBlockedReason({ ...accepted, approvals: {} })).toContain("Approvals unknown");
  });

  it("offers accept on proposed, received and failed proposals only", () => {
    const can = (status: ChaincodeProposal["status"]): boolean => canAccept({ status });
    expect(["proposed", "received", "failed"].every((s) => can(s as ChaincodeProposal["status"]))).toBe(true);
    expect(can("accepting") || can("accepted") || can("committed")).toBe(false);
  });

  it("commits through a running peer of this console that joined the channel", () => {
    const member = (nodeId: number, status: string, nodeStatus: string, role = "peer"): FabricNetworkNode =>
      ({
        id: nodeId,
        networkId: 3,
        nodeId,
        role,
        status,
        node: { name: `peer${nodeId}`, status: nodeStatus, fabricPeer: { mspId: "Org1MSP" } },
      }) as unknown as FabricNetworkNode;
    expect(
      commitPeers([
        member(1, "joined", "RUNNING"),
        member(2, "joined", "STOPPED"),
        member(3, "pending", "RUNNING"),
        member(4, "joined", "RUNNING", "orderer"),
      ]),
    ).toEqual([{ id: 1, label: "peer1 (Org1MSP)" }]);
  });
});

describe("Chaincode proposals section", () => {
  it("shows loading, empty and the server's error", () => {
    expect(text(asRole("admin"))).toContain("Loading");
    expect(text(asRole("admin"), list([]))).toContain("No chaincode proposals on this channel");
    expect(text(asRole("admin"), failing(chaincodeProposalKeys.list(3)))).toContain("database is locked");
  });

  it("lists each proposal with status, origin, approvals per org and its error", () => {
    const failed = { ...received, id: 7, name: "fabcar", status: "failed" as const, error: "go build: exit 1" };
    const t = text(asRole("admin"), list([received, accepted, failed]));
    for (const s of ["basic", "1.0", "Received", "alice@cl-bbbb", "Accepted", "Failed", "go build: exit 1"])
      expect(t).toContain(s);
    expect(t).toContain("Org1MSP approved");
    expect(t).toContain("Org3MSP not approved");
    expect(t).toContain("2 of 3 approved");
    expect(t).toContain("Retry accept of fabcar");
    expect(text(asRole("admin"), list([{ ...received, connectionId: 0, sharedBy: "" }]))).toContain("This console");
  });

  it("takes the approvals from the proposal's detail (the list answers none) and a commit the detail saw", () => {
    // As the server answers: the list has no approvals; GET /pro/chaincodes/proposals/{id} reads them from a peer.
    const listed = { ...accepted, approvals: {} };
    const detail = (p: ChaincodeProposal) => seed(chaincodeProposalKeys.detail(p.id), { proposal: p });
    const h = html(asRole("admin"), list([listed]), detail(accepted));
    expect(h).toContain("2 of 3 approved");
    expect(h).not.toMatch(/<button[^>]*disabled=""[^>]*aria-label="Commit assets"/);
    expect(html(asRole("admin"), list([listed]))).toMatch(/<button[^>]*disabled=""[^>]*aria-label="Commit assets"/);
    expect(text(asRole("admin"), list([listed]), detail({ ...accepted, status: "committed" }))).toContain("Committed");
  });

  it("enables Commit only with a majority of approvals", () => {
    const minority = { ...accepted, approvals: { Org1MSP: true, Org2MSP: false, Org3MSP: false } };
    expect(html(asRole("admin"), list([accepted]))).not.toMatch(
      /<button[^>]*disabled=""[^>]*aria-label="Commit assets"/,
    );
    expect(html(asRole("admin"), list([accepted]))).toMatch(/aria-label="Commit assets"/);
    expect(html(asRole("admin"), list([minority]))).toMatch(
      /title="1 of 3 orgs approved; 2 needed"[^>]*><button[^>]*disabled=""[^>]*aria-label="Commit assets"/,
    );
  });

  it("shows a running accept as pending", () => {
    const t = html(asRole("manager"), list([{ ...received, status: "accepting" }]));
    expect(t).toMatch(/<button[^>]*disabled=""[^>]*aria-label="Accepting basic"/);
    expect(t).toContain("Accepting…");
  });

  it("links to the propose screen for operators and shows viewers no action", () => {
    expect(html(asRole("admin"), list([]))).toContain('href="/networks/3/fabric/chaincodes/propose"');
    const viewer = text(asRole("viewer"), list([received, accepted]));
    expect(viewer).toContain("basic");
    expect(viewer).not.toContain("Accept basic");
    expect(viewer).not.toContain("Commit");
    expect(viewer).not.toContain("Propose chaincode");
  });
});

describe("proposal actions call the API", () => {
  it("Accept posts to the proposal's accept route", async () => {
    http.respond("POST", "/pro/chaincodes/proposals/5/accept", 200, { proposal: { ...received, status: "accepted" } });
    let accepting: Promise<unknown> | undefined;
    const actions = ProposalActions({
      proposal: received,
      acceptPending: false,
      onAccept: () => (accepting = acceptChaincodeProposal(received.id)),
      onCommit: () => {},
      share: null,
    });
    const button = findByLabel(actions, "Accept basic");
    expect(button?.props.disabled).toBe(false);
    (button?.props.onClick as () => void)();
    await expect(accepting).resolves.toMatchObject({ proposal: { status: "accepted" } });
    expect(http.calls).toEqual([
      { method: "POST", path: "/pro/chaincodes/proposals/5/accept", query: "", body: undefined },
    ]);
  });

  it("a failed accept surfaces the server's message", async () => {
    http.respond("POST", "/pro/chaincodes/proposals/5/accept", 502, {
      error: "UPSTREAM_ERROR",
      message: "peer0: install failed: chaincode build exited 1",
      requestId: "r1",
    });
    await expect(acceptChaincodeProposal(5)).rejects.toEqual(
      expect.objectContaining({ status: 502, message: "peer0: install failed: chaincode build exited 1" }),
    );
    await expect(acceptChaincodeProposal(5)).rejects.toBeInstanceOf(ApiError);
  });

  it("Commit posts the definition's commit with the chosen peer; disabled without a majority", async () => {
    const minority = { ...accepted, approvals: { Org1MSP: true, Org2MSP: false, Org3MSP: false } };
    const props = { acceptPending: false, onAccept: () => {}, onCommit: () => {}, share: null };
    expect(findByLabel(ProposalActions({ ...props, proposal: minority }), "Commit")?.props.disabled).toBe(true);
    const onCommit = vi.fn();
    const commitButton = findByLabel(ProposalActions({ ...props, proposal: accepted, onCommit }), "Commit");
    expect(commitButton?.props.disabled).toBe(false);
    (commitButton?.props.onClick as () => void)();
    expect(onCommit).toHaveBeenCalledOnce();

    http.respond("POST", "/sc/fabric/definitions/40/commit", 200, { message: "committed" });
    await commitProposalDefinition({ definitionId: 40, peerId: 9 });
    expect(http.calls.at(-1)).toMatchObject({ path: "/sc/fabric/definitions/40/commit", body: { peer_id: 9 } });
  });

  it("Share sends the chosen connections", async () => {
    http.respond("POST", "/pro/chaincodes/proposals/5/share", 200, { success: true });
    await expect(shareChaincodeProposal({ proposalId: 5, recipients: [7, 8] })).resolves.toEqual({ success: true });
    expect(http.calls[0]).toMatchObject({ method: "POST", body: { recipients: [7, 8] } });
  });
});
