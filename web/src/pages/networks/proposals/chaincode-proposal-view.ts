import type { ChaincodeProposal, ChaincodeProposalStatus } from "@/data/chaincode-proposals/types";
import type { FabricNetworkNode } from "@/data/fabric-networks/types";

type BadgeVariant = "success" | "warning" | "destructive" | "secondary" | "outline";

const STATUS_BADGES: Record<ChaincodeProposalStatus, { label: string; variant: BadgeVariant }> = {
  proposed: { label: "Proposed", variant: "outline" },
  received: { label: "Received", variant: "warning" },
  accepting: { label: "Accepting", variant: "warning" },
  accepted: { label: "Accepted", variant: "success" },
  failed: { label: "Failed", variant: "destructive" },
  committed: { label: "Committed", variant: "success" },
};

export function proposalStatusBadge(status: ChaincodeProposalStatus): { label: string; variant: BadgeVariant } {
  return STATUS_BADGES[status];
}

/**
 * Accept installs and approves for this console's orgs: offered on a proposal made here (the proposer's
 * own orgs approve too), on a received one, and again after a failure (the server retries).
 */
export function canAccept(p: Pick<ChaincodeProposal, "status">): boolean {
  return p.status === "proposed" || p.status === "received" || p.status === "failed";
}

export interface CommitReadiness {
  approved: number;
  total: number;
  /** Orgs that must approve: a majority of the channel's orgs, the default LifecycleEndorsement policy. */
  needed: number;
  enough: boolean;
  /** Orgs that have not approved yet. */
  missing: string[];
}

/**
 * Whether enough orgs approved to commit, from the proposal's CheckCommitReadiness answer. The channel's
 * default `/Channel/Application/LifecycleEndorsement` is `MAJORITY Endorsement`: more than half of the
 * orgs (2 of 3, 3 of 4). An empty map means no peer here could answer, so nothing is known to be ready.
 */
export function commitReadiness(approvals: Record<string, boolean>): CommitReadiness {
  const orgs = Object.keys(approvals).sort();
  const approved = orgs.filter((o) => approvals[o]).length;
  const needed = Math.floor(orgs.length / 2) + 1;
  return {
    approved,
    total: orgs.length,
    needed,
    enough: orgs.length > 0 && approved >= needed,
    missing: orgs.filter((o) => !approvals[o]),
  };
}

/** Commit needs the local definition (created on propose or accept) and enough approvals, once. */
export function canCommit(p: Pick<ChaincodeProposal, "status" | "definitionId" | "approvals">): boolean {
  return (
    p.status !== "committed" &&
    p.status !== "accepting" &&
    p.definitionId !== null &&
    commitReadiness(p.approvals).enough
  );
}

/** Why Commit is disabled, for its tooltip-like hint; undefined when it is enabled. */
export function commitBlockedReason(
  p: Pick<ChaincodeProposal, "status" | "definitionId" | "approvals">,
): string | undefined {
  if (p.status === "committed") return "Already committed";
  if (p.status === "accepting") return "Accept is still running";
  if (p.definitionId === null) return "Accept it first: this console has no definition of it yet";
  const r = commitReadiness(p.approvals);
  if (r.total === 0) return "Approvals unknown: no peer of this console could answer";
  if (!r.enough) return `${r.approved} of ${r.total} orgs approved; ${r.needed} needed`;
  return undefined;
}

/** Who a proposal came from: the sharing console, or this one. */
export function proposalOrigin(p: Pick<ChaincodeProposal, "sharedBy" | "connectionId">): string {
  return p.connectionId === 0 || !p.sharedBy ? "This console" : p.sharedBy;
}

/** Peers of this console joined to the channel whose process runs: the ones that can submit a commit. */
export function commitPeers(nodes: readonly FabricNetworkNode[] | undefined): { id: number; label: string }[] {
  return (nodes ?? [])
    .filter((m) => m.role === "peer" && m.status === "joined" && m.node?.status === "RUNNING")
    .map((m) => ({
      id: m.nodeId,
      label: m.node?.fabricPeer?.mspId
        ? `${m.node.name} (${m.node.fabricPeer.mspId})`
        : (m.node?.name ?? `#${m.nodeId}`),
    }));
}
