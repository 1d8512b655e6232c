import type { ApiNotification } from "@/api/client";
import { formatDateTime } from "@/lib/utils";
import { megabytes } from "@/lib/units";

export type NotificationKind = "success" | "error" | "warning" | "info";

/** The displayed form of a notification (spec §3). */
export interface DisplayNotification {
  id: number;
  type: NotificationKind;
  title: string;
  message: string;
  link?: string;
  linkText?: string;
  /** Formatted creation time, or 'Invalid date'. */
  timestamp: string;
  eventType: string;
  data: Record<string, unknown>;
  read: boolean;
}

/** The event types of spec §9, then the alerts the console evaluates (issue 14). */
export const EVENT_TYPES = [
  "proposal.received",
  "proposal.shared",
  "signature.received",
  "signature.shared",
  "network.received",
  "network.shared",
  "chaincode.received",
  "chaincode.shared",
  "backup.success",
  "backup.failure",
  "node.downtime",
  "node.recovery",
  "s3.connection.issue",
  "certificate.expiring",
  "peer.lagging",
  "peer.caught_up",
  "raft.no_leader",
  "raft.consenter_unreachable",
  "raft.recovered",
] as const;

type Mapped = Pick<DisplayNotification, "type" | "title" | "message" | "link" | "linkText">;

/** Minutes as people say them: "15 minutes", "1 minute", "40 seconds". */
export function downtimeText(mins: unknown): string {
  const m = typeof mins === "number" ? mins : Number(mins);
  if (!Number.isFinite(m) || m < 0) return "an unknown time";
  if (m < 1) {
    const s = Math.max(1, Math.round(m * 60));
    return `${s} second${s === 1 ? "" : "s"}`;
  }
  const whole = Math.round(m);
  return `${whole} minute${whole === 1 ? "" : "s"}`;
}

function str(d: Record<string, unknown>, key: string, fallback = "unknown"): string {
  const v = d[key];
  if (typeof v === "string" && v !== "") return v;
  if (typeof v === "number" || typeof v === "bigint") return String(v);
  return fallback;
}

/** Bytes as MB with two decimals ("1.50"), the one unit of sizes (`lib/units`). */
export const bytesToMB = megabytes;

/** A proposal's detail page; a received copy with no local network (network_id 0) has only its sign page. */
function proposalLink(d: Record<string, unknown>): string {
  const networkId = Number(d.network_id);
  if (!Number.isInteger(networkId) || networkId <= 0) return signLink(d);
  return `/networks/${networkId}/fabric/proposals/${str(d, "proposal_id")}`;
}

/** Where a received proposal lands: its summary, diff and signing as this console's org. */
function signLink(d: Record<string, unknown>): string {
  return `/networks/fabric/proposals/${str(d, "proposal_id")}/sign`;
}

/** A chaincode proposal's network tab; a channel this console has no network for: the shared networks. */
function chaincodeProposalLink(d: Record<string, unknown>): string {
  const id = Number(d.network_id);
  return Number.isInteger(id) && id > 0 ? `/networks/${id}/fabric?tab=proposals` : "/networks/fabric/shared";
}

function networkLink(d: Record<string, unknown>): string {
  const platform = str(d, "platform", "fabric").toLowerCase() === "besu" ? "besu" : "fabric";
  return `/networks/${str(d, "network_id")}/${platform}`;
}

const CERT_LINK_TEXT: Record<string, string> = { node: "View Node", ca: "View Organization", identity: "View Key" };
const CERT_KIND: Record<string, string> = { node: "node", ca: "CA", identity: "identity" };

/** "in 3 days", "in 1 day", "today", or "3 days ago" once past. */
export function daysLeftText(days: unknown): string {
  const d = typeof days === "number" ? days : Number(days);
  if (!Number.isFinite(d)) return "soon";
  if (d < 0) return `${-d} day${d === -1 ? "" : "s"} ago`;
  if (d === 0) return "today";
  return `in ${d} day${d === 1 ? "" : "s"}`;
}

function certificateExpiring(d: Record<string, unknown>): Mapped {
  const kind = str(d, "kind", "identity");
  const link = typeof d.link === "string" && /^\/(?!\/)/.test(d.link) ? d.link : "/settings/keys";
  const expired = typeof d.days_left === "number" && d.days_left < 0;
  return {
    type: "warning",
    title: "Certificate Expiring",
    message: `The ${CERT_KIND[kind] ?? kind} certificate of ${str(d, "name")} ${expired ? "expired" : "expires"} ${daysLeftText(
      d.days_left,
    )}`,
    link,
    linkText: CERT_LINK_TEXT[kind] ?? "View Certificate",
  };
}

function unreachableText(d: Record<string, unknown>): string {
  const names = Array.isArray(d.unreachable) ? d.unreachable.filter((x): x is string => typeof x === "string") : [];
  if (names.length) return `${names.join(", ")} ${names.length === 1 ? "is" : "are"} unreachable`;
  const size = Number(d.cluster_size);
  const active = Number(d.active_nodes);
  if (Number.isFinite(size) && Number.isFinite(active) && size > active) {
    return `${size - active} of ${size} consenters are unreachable`;
  }
  return "a consenter is unreachable";
}

const MAPPERS: Record<(typeof EVENT_TYPES)[number], (d: Record<string, unknown>) => Mapped> = {
  "proposal.received": (d) => ({
    type: "info",
    title: "New Proposal Received",
    message: `${str(d, "from_user", "A peer")} sent a configuration proposal for channel ${str(d, "channel_name")}`,
    link: signLink(d),
    linkText: "View Proposal",
  }),
  "proposal.shared": (d) => ({
    type: "success",
    title: "Proposal Shared",
    message: `Proposal for channel ${str(d, "channel_name")} was shared`,
    link: proposalLink(d),
    linkText: "View Proposal",
  }),
  "signature.received": (d) => ({
    type: "info",
    title: "New Signature Received",
    message: `${str(d, "signer_msp_id")} signed the proposal for channel ${str(d, "channel_name")}`,
    link: proposalLink(d),
    linkText: "View Proposal",
  }),
  "signature.shared": (d) => ({
    type: "success",
    title: "Signature Shared",
    message: `Your signature for channel ${str(d, "channel_name")} was shared`,
    link: proposalLink(d),
    linkText: "View Proposal",
  }),
  "network.received": (d) => ({
    type: "info",
    title: "Network Shared With You",
    message: `${str(d, "from_user", "A peer")} shared the ${str(d, "platform", "fabric")} network ${str(d, "network_name")}`,
    link: "/networks/fabric/shared",
    linkText: "View Shared Networks",
  }),
  "network.shared": (d) => ({
    type: "success",
    title: "Network Shared",
    message: `Network ${str(d, "network_name")} was shared with ${str(d, "shared_with_nodes", "0")} node(s)`,
    link: networkLink(d),
    linkText: "View Network",
  }),
  "chaincode.received": (d) => ({
    type: "info",
    title: "Chaincode Received",
    message:
      `${str(d, "from_user", "A peer")} shared chaincode ${str(d, "chaincode_name")} ${str(d, "version", "")}`.trim(),
    link: chaincodeProposalLink(d),
    linkText: "View Proposal",
  }),
  "chaincode.shared": (d) => ({
    type: "success",
    title: "Chaincode Shared",
    message: `Chaincode ${str(d, "chaincode_name")} was shared with ${str(d, "shared_with_nodes", "0")} node(s)`,
    link: chaincodeProposalLink(d),
    linkText: "View Proposal",
  }),
  "backup.success": (d) => ({
    type: "success",
    title: "Backup Completed",
    message: `Backup to ${str(d, "target_name")} completed (${bytesToMB(d.size)} MB)`,
    link: "/settings/backups",
    linkText: "View Backups",
  }),
  "backup.failure": (d) => ({
    type: "error",
    title: "Backup Failed",
    message: `Backup to ${str(d, "target_name")} failed: ${str(d, "reason", "unknown reason")}`,
    link: "/settings/backups",
    linkText: "View Backups",
  }),
  "node.downtime": (d) => ({
    type: "error",
    title: "Node Down",
    message: `Node ${str(d, "node_name")} has been down for ${downtimeText(d.downtime_mins)}${
      typeof d.reason === "string" && d.reason ? `: ${d.reason}` : ""
    }`,
    link: `/nodes/${str(d, "node_id")}`,
    linkText: "View Node",
  }),
  "node.recovery": (d) => ({
    type: "success",
    title: "Node Recovered",
    message: `Node ${str(d, "node_name")} is back online`,
    link: `/nodes/${str(d, "node_id")}`,
    linkText: "View Node",
  }),
  "s3.connection.issue": (d) => ({
    type: "warning",
    title: "S3 Connection Issue",
    message: `Cannot reach bucket ${str(d, "bucket")} at ${str(d, "endpoint")}: ${str(d, "reason", "unknown reason")}`,
    link: "/settings/backups",
    linkText: "View Backups",
  }),
  "certificate.expiring": certificateExpiring,
  "peer.lagging": (d) => ({
    type: "warning",
    title: "Peer Lagging",
    message: `Peer ${str(d, "node_name")} is ${str(d, "lag")} blocks behind on channel ${str(d, "channel_name")} (height ${str(
      d,
      "peer_height",
    )} of ${str(d, "orderer_height")})`,
    link: `/nodes/${str(d, "node_id")}`,
    linkText: "View Node",
  }),
  "peer.caught_up": (d) => ({
    type: "success",
    title: "Peer Caught Up",
    message: `Peer ${str(d, "node_name")} has caught up on channel ${str(d, "channel_name")}`,
    link: `/nodes/${str(d, "node_id")}`,
    linkText: "View Node",
  }),
  "raft.no_leader": (d) => ({
    type: "error",
    title: "Raft Leader Lost",
    message: `Channel ${str(d, "channel_name")} has no Raft leader: it cannot order transactions`,
    link: `/networks/${str(d, "network_id")}/fabric`,
    linkText: "View Network",
  }),
  "raft.consenter_unreachable": (d) => ({
    type: "error",
    title: "Raft Consenter Unreachable",
    message: `Channel ${str(d, "channel_name")}: ${unreachableText(d)}`,
    link: `/networks/${str(d, "network_id")}/fabric`,
    linkText: "View Network",
  }),
  "raft.recovered": (d) => ({
    type: "success",
    title: "Raft Recovered",
    message:
      d.problem === "no_leader"
        ? `Channel ${str(d, "channel_name")} has a Raft leader again`
        : `Every consenter of channel ${str(d, "channel_name")} is reachable again`,
    link: `/networks/${str(d, "network_id")}/fabric`,
    linkText: "View Network",
  }),
};

function isKnown(type: string): type is (typeof EVENT_TYPES)[number] {
  return (EVENT_TYPES as readonly string[]).includes(type);
}

/** Maps an API notification to its displayed form. Pure; unknown types become 'System Notification'. */
export function mapNotification(n: ApiNotification): DisplayNotification {
  const data = n.event_data && typeof n.event_data === "object" ? n.event_data : {};
  const mapped: Mapped = isKnown(n.event_type)
    ? MAPPERS[n.event_type](data)
    : { type: "info", title: "System Notification", message: `Event: ${n.event_type}` };
  return {
    id: n.id,
    ...mapped,
    timestamp: formatDateTime(n.created_at),
    eventType: n.event_type,
    data,
    read: n.is_read,
  };
}

/** The bell's badge text: nothing at 0, the number up to 9, '9+' above 9. */
export function badgeText(count: number): string | null {
  if (!Number.isFinite(count) || count <= 0) return null;
  return count > 9 ? "9+" : String(count);
}
