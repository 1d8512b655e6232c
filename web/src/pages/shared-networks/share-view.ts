import type { ConnectedPeer } from "@/data/federation/types";
import type { ShareNetworkResult, SharedNetwork, SharePlatform, ShareRecipientResult } from "@/data/sharing/types";

type BadgeVariant = "success" | "warning" | "destructive" | "secondary";

const BADGES: Record<string, { label: string; variant: BadgeVariant }> = {
  pending: { label: "Pending", variant: "warning" },
  accepting: { label: "Accepting", variant: "warning" },
  accepted: { label: "Accepted", variant: "success" },
  rejected: { label: "Rejected", variant: "secondary" },
  sent: { label: "Sent", variant: "success" },
  failed: { label: "Failed", variant: "destructive" },
};

/** How a share's (or a recipient's) status is shown; a status this screen doesn't know is shown as is. */
export function shareStatusBadge(status: string): { label: string; variant: BadgeVariant } {
  return BADGES[status] ?? { label: status, variant: "secondary" };
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

/** The outcome of sharing a network, from the answer's per-recipient results. */
export function shareOutcome(result: ShareNetworkResult, peers: readonly ConnectedPeer[] | undefined): ShareToast {
  const name = (r: ShareRecipientResult): string => r.nodeId || recipientName(r.recipient, peers);
  const failed = result.results.filter((r) => r.status === "failed");
  const lines = failed.map((r) => `${name(r)}: ${r.error ?? "could not be reached"}`).join("\n");
  const total = result.results.length || result.recipients.length;
  if (result.status === "failed" || (total > 0 && failed.length >= total)) {
    return { kind: "error", title: "The network could not be shared", description: lines || "No recipient got it." };
  }
  if (failed.length > 0) {
    return { kind: "warning", title: `Shared with ${total - failed.length} of ${total} consoles`, description: lines };
  }
  const names = result.results.length
    ? result.results.map(name)
    : result.recipients.map((r) => recipientName(r, peers));
  return {
    kind: "success",
    title: "Network shared",
    description: `Sent to ${names.join(", ")}. They can accept it on their Shared Networks page.`,
  };
}

function isRecipientResult(v: unknown): v is ShareRecipientResult {
  const r = v as Partial<ShareRecipientResult> | null;
  return typeof r === "object" && r !== null && typeof r.recipient === "number" && typeof r.status === "string";
}

/**
 * Each recipient of a sent share with its own outcome, read from the share's dataJson (the server
 * keeps them there and updates them when a recipient accepts or rejects). Without them, every
 * recipient gets the share's status.
 */
export function recipientOutcomes(share: Pick<SharedNetwork, "recipients" | "status" | "dataJson">): {
  recipient: number;
  nodeId: string | undefined;
  status: string;
  error: string | null;
}[] {
  const listed = (share.dataJson as { recipients?: unknown } | null | undefined)?.recipients;
  if (Array.isArray(listed) && listed.length > 0 && listed.every(isRecipientResult)) {
    return listed.map((r) => ({
      recipient: r.recipient,
      nodeId: r.nodeId || undefined,
      status: r.status,
      error: r.error,
    }));
  }
  return share.recipients.map((recipient) => ({
    recipient,
    nodeId: undefined,
    status: share.status,
    // The share's own error is shown with its status, once.
    error: null,
  }));
}
