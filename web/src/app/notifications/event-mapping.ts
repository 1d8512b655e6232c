import type { ApiNotification } from "@/api/client";
import { formatDateTime } from "@/lib/utils";

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

/** The event types of spec §9. */
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

/** Bytes as MB with two decimals ("1.50"). */
export function bytesToMB(size: unknown): string {
  const n = typeof size === "number" ? size : typeof size === "string" ? Number(size) : NaN;
  return Number.isFinite(n) ? (n / (1024 * 1024)).toFixed(2) : "0.00";
}

function proposalLink(d: Record<string, unknown>): string {
  return `/networks/${str(d, "network_id")}/fabric/proposals/${str(d, "proposal_id")}`;
}

function networkLink(d: Record<string, unknown>): string {
  const platform = str(d, "platform", "fabric").toLowerCase() === "besu" ? "besu" : "fabric";
  return `/networks/${str(d, "network_id")}/${platform}`;
}

const MAPPERS: Record<(typeof EVENT_TYPES)[number], (d: Record<string, unknown>) => Mapped> = {
  "proposal.received": (d) => ({
    type: "info",
    title: "New Proposal Received",
    message: `${str(d, "from_user", "A peer")} sent a configuration proposal for channel ${str(d, "channel_name")}`,
    link: proposalLink(d),
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
    link: `/sc/fabric/chaincodes/${str(d, "chaincode_id")}`,
    linkText: "View Chaincode",
  }),
  "chaincode.shared": (d) => ({
    type: "success",
    title: "Chaincode Shared",
    message: `Chaincode ${str(d, "chaincode_name")} was shared with ${str(d, "shared_with_nodes", "0")} node(s)`,
    link: `/sc/fabric/chaincodes/${str(d, "chaincode_id")}`,
    linkText: "View Chaincode",
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
