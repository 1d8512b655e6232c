import type { ConnectedPeer } from "@/data/federation/types";
import type { ShareNetworkOutcome } from "@/data/sharing/network-share-mutation";
import type { SharedNetwork, SharePlatform, ShareStatus } from "@/data/sharing/types";

type BadgeVariant = "success" | "warning" | "destructive" | "secondary";

/** How a share's status is shown: its label and badge colour. */
export function shareStatusBadge(status: ShareStatus): { label: string; variant: BadgeVariant } {
  switch (status) {
    case "pending":
      return { label: "Pending", variant: "warning" };
    case "accepted":
      return { label: "Accepted", variant: "success" };
    case "rejected":
      return { label: "Rejected", variant: "secondary" };
    case "sent":
      return { label: "Sent", variant: "success" };
    case "failed":
      return { label: "Failed", variant: "destructive" };
  }
}

export function platformLabel(platform: SharePlatform): string {
  return platform === "fabric" ? "Fabric" : "Besu";
}

/** Only a received share still waiting for an answer can be accepted or rejected. */
export function canDecide(share: Pick<SharedNetwork, "direction" | "status">): boolean {
  return share.direction === "received" && share.status === "pending";
}

/** The page of the network an accepted share was imported as, if there is one. */
export function importedNetworkHref(share: Pick<SharedNetwork, "localNetworkId" | "platform">): string | undefined {
  return share.localNetworkId === null ? undefined : `/networks/${share.localNetworkId}/${share.platform}`;
}

/** The Connect page of a console, by node id. */
export function connectionHref(nodeId: string): string {
  return `/connect/${encodeURIComponent(nodeId)}`;
}

/** A recipient (connected peer row id) by its node id; "connection #id" when it is no longer known. */
export function recipientName(id: number, peers: readonly ConnectedPeer[] | undefined): string {
  return peers?.find((p) => p.id === id)?.node_id ?? `connection #${id}`;
}

/** Connections a network or key can be shared with: every one not revoked (an unreachable one may come back). */
export function shareTargets(peers: readonly ConnectedPeer[] | undefined): ConnectedPeer[] {
  return (peers ?? []).filter((p) => p.status !== "revoked");
}

/** What the toast says once a share is done: success, partial (with each failed recipient) or failure. */
export interface ShareToast {
  kind: "success" | "warning" | "error";
  title: string;
  description: string;
}

/**
 * The outcome of sharing a network. Failed sent records name their recipients (one record per
 * recipient, or one for the share with its error); without them the answer's status decides.
 */
export function shareOutcome(outcome: ShareNetworkOutcome, peers: readonly ConnectedPeer[] | undefined): ShareToast {
  const { result, sent } = outcome;
  const total = result.recipients.length;
  const failed = sent.filter((s) => s.status === "failed");
  const failedIds = new Set(failed.flatMap((s) => s.recipients));
  const lines = failed.map((s) => {
    const who = s.recipients.map((r) => recipientName(r, peers)).join(", ") || "a recipient";
    return `${who}: ${s.error ?? "could not be reached"}`;
  });
  const allFailed = result.status === "failed" || (failedIds.size > 0 && failedIds.size >= total);
  if (allFailed) {
    return {
      kind: "error",
      title: "The network could not be shared",
      description: lines.join("\n") || `Status: ${result.status}`,
    };
  }
  if (failed.length > 0 || result.status === "partial") {
    const ok = Math.max(0, total - failedIds.size);
    return {
      kind: "warning",
      title: `Shared with ${ok} of ${total} consoles`,
      description: lines.join("\n") || `Status: ${result.status}`,
    };
  }
  const names = result.recipients.map((r) => recipientName(r, peers)).join(", ");
  return { kind: "success", title: "Network shared", description: `Sent to ${names}. They can accept it now.` };
}
