import type { ConnectedPeer, ConnectionStatus, SyncResult } from "@/data/federation/types";

type BadgeVariant = "success" | "warning" | "destructive";

/** How a connection's status is shown: its label and badge colour. */
export function statusBadge(status: ConnectionStatus): { label: string; variant: BadgeVariant } {
  switch (status) {
    case "connected":
      return { label: "Connected", variant: "success" };
    case "unreachable":
      return { label: "Unreachable", variant: "warning" };
    case "revoked":
      return { label: "Revoked", variant: "destructive" };
  }
}

/** Bounds of an invitation's lifetime, as the server enforces them (1 hour to 30 days). */
export const MIN_EXPIRY_HOURS = 1;
export const MAX_EXPIRY_HOURS = 720;

/** The form's expiry field: a whole number of hours within the server's bounds, else the message to show. */
export function parseExpiryHours(raw: string): { hours: number } | { error: string } {
  const text = raw.trim();
  if (!/^\d+$/.test(text)) return { error: "Enter a whole number of hours" };
  const hours = Number(text);
  if (hours < MIN_EXPIRY_HOURS || hours > MAX_EXPIRY_HOURS) {
    return { error: `Between ${MIN_EXPIRY_HOURS} and ${MAX_EXPIRY_HOURS} hours (30 days)` };
  }
  return { hours };
}

/** What an invitation says about itself, read from its (unverified) JWT payload, for display only. */
export interface InvitationClaims {
  issuer: string;
  endpoint: string;
  expiresAt: Date;
}

function base64UrlDecode(part: string): string {
  const b64 = part.replace(/-/g, "+").replace(/_/g, "/");
  const padded = b64 + "=".repeat((4 - (b64.length % 4)) % 4);
  const bin = atob(padded);
  return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
}

/**
 * Reads an invitation's issuer, endpoint and expiry so the operator can check them before accepting.
 * No signature check: the server verifies the invitation when it is accepted. Undefined when the
 * text is not a JWT with those claims.
 */
export function readInvitation(jwt: string): InvitationClaims | undefined {
  const parts = jwt.trim().split(".");
  if (parts.length !== 3 || !parts[1]) return undefined;
  try {
    const claims = JSON.parse(base64UrlDecode(parts[1])) as Record<string, unknown>;
    const { iss, endpoint, exp } = claims;
    if (typeof iss !== "string" || typeof endpoint !== "string" || typeof exp !== "number") return undefined;
    return { issuer: iss, endpoint, expiresAt: new Date(exp * 1000) };
  } catch {
    return undefined;
  }
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** One line per kind that changed, e.g. "Organizations: 1 added, 0 deleted"; empty when nothing changed. */
export function syncSummary(r: SyncResult): string[] {
  const rows: [string, number, number][] = [
    ["Organizations", r.organizations_added, r.organizations_deleted],
    ["Peers", r.fabric_peers_added, r.fabric_peers_deleted],
    ["Orderers", r.fabric_orderers_added, r.fabric_orderers_deleted],
    ["Besu nodes", r.besu_nodes_added, r.besu_nodes_deleted],
  ];
  return rows.filter(([, a, d]) => a > 0 || d > 0).map(([label, a, d]) => `${label}: ${a} added, ${d} deleted`);
}

/** The toast text of a finished sync: the counts, or that nothing changed, and how many entries failed. */
export function syncMessage(r: SyncResult): string {
  const lines = syncSummary(r);
  const head = lines.length ? lines.join("; ") : "Nothing added or deleted";
  return r.errors.length ? `${head}. ${plural(r.errors.length, "entry", "entries")} could not be stored.` : head;
}

/** The node id of the connection an external record came through, by its connection id. */
export function sourceNodeId(connectionId: number, peers: readonly ConnectedPeer[] | undefined): string | undefined {
  return peers?.find((p) => p.id === connectionId)?.node_id;
}

/** Whether a connection can still be talked to (sync, live nodes, disconnect). */
export function isActive(peer: Pick<ConnectedPeer, "status">): boolean {
  return peer.status !== "revoked";
}
