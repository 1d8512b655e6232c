import type { NotificationEventType } from "../../events/bus.js";

type Data = Record<string, unknown>;

/** Titles: the spec's (section 9) for its types, ours for the alert types of issue 14. */
export const EVENT_TITLES: Partial<Record<NotificationEventType, string>> = {
  "node.downtime": "Node Down",
  "node.recovery": "Node Recovered",
  "backup.success": "Backup Completed",
  "backup.failure": "Backup Failed",
  "s3.connection.issue": "S3 Connection Issue",
  "certificate.expiring": "Certificate Expiring",
  "peer.lagging": "Peer Lagging",
  "peer.caught_up": "Peer Caught Up",
  "raft.no_leader": "Raft Leader Lost",
  "raft.consenter_unreachable": "Raft Consenter Unreachable",
  "raft.recovered": "Raft Recovered",
};

const str = (v: unknown): string | undefined =>
  typeof v === "string" && v.trim() ? v.trim() : typeof v === "number" && Number.isFinite(v) ? String(v) : undefined;
const num = (v: unknown): number | undefined => {
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

/** "key=value" pairs of the scalar fields, for alerts whose data we don't know field by field. */
function generic(data: Data): string {
  const parts = Object.entries(data)
    .filter(([, v]) => ["string", "number", "boolean"].includes(typeof v))
    .slice(0, 12)
    .map(([k, v]) => `${k}=${String(v)}`);
  return parts.length ? ` (${parts.join(", ")})` : "";
}

const because = (d: Data): string => (str(d.reason) ? `: ${str(d.reason)}` : "");
const nodeName = (d: Data): string => str(d.node_name) ?? (str(d.node_id) ? `node ${str(d.node_id)}` : "A node");
const minutes = (d: Data): string => {
  const m = num(d.downtime_mins);
  return m === undefined ? "" : ` for ${m} minute${m === 1 ? "" : "s"}`;
};

/** A readable sentence for an event, from the fields each publisher sets. */
export function eventMessage(type: string, d: Data): string {
  switch (type) {
    case "node.downtime":
      return `Node ${nodeName(d)} has been down${minutes(d)}${because(d)}.`;
    case "node.recovery":
      return `Node ${nodeName(d)} is running again after being down${minutes(d)}.`;
    case "backup.success": {
      const size = num(d.size);
      const mb = size === undefined ? "" : ` (${(size / 1024 / 1024).toFixed(2)} MB)`;
      return `Backup to ${str(d.target_name) ?? "the backup target"} completed${mb}.`;
    }
    case "backup.failure":
      return `Backup to ${str(d.target_name) ?? "the backup target"} failed${because(d)}.`;
    case "s3.connection.issue": {
      const where = [str(d.bucket) && `bucket ${str(d.bucket)}`, str(d.endpoint) && `at ${str(d.endpoint)}`]
        .filter(Boolean)
        .join(" ");
      return `Cannot reach S3${where ? ` ${where}` : ""}${because(d)}.`;
    }
    case "certificate.expiring": {
      const days = num(d.days_left ?? d.days_remaining);
      const what = str(d.subject) ?? str(d.common_name) ?? str(d.certificate) ?? "A certificate";
      const of = str(d.node_name) ? ` of ${str(d.node_name)}` : "";
      const when =
        days !== undefined
          ? ` in ${days} day${days === 1 ? "" : "s"}`
          : str(d.expires_at)
            ? ` on ${str(d.expires_at)}`
            : " soon";
      return `Certificate ${what}${of} expires${when}.`;
    }
    case "peer.lagging":
      return `Peer ${nodeName(d)} is behind${str(d.channel) ? ` on channel ${str(d.channel)}` : ""}${generic(d)}.`;
    case "peer.caught_up":
      return `Peer ${nodeName(d)} has caught up${str(d.channel) ? ` on channel ${str(d.channel)}` : ""}.`;
    case "raft.no_leader":
      return `The Raft cluster${str(d.channel) ? ` of channel ${str(d.channel)}` : ""} has no leader${generic(d)}.`;
    case "raft.consenter_unreachable":
      return `A Raft consenter is unreachable${generic(d)}.`;
    case "raft.recovered":
      return `The Raft cluster${str(d.channel) ? ` of channel ${str(d.channel)}` : ""} has recovered.`;
    default:
      return `Event ${type}${generic(d)}.`;
  }
}

/** The console page an event is about (spec section 9), absolute when the public URL is known. */
export function eventLink(type: string, d: Data, publicUrl: string | undefined): string {
  const node = str(d.node_id);
  const network = str(d.network_id);
  let path = "/monitoring";
  if (type.startsWith("backup.") || type === "s3.connection.issue") path = "/settings/backups";
  else if (node) path = `/nodes/${encodeURIComponent(node)}`;
  else if (network) path = `/networks/${encodeURIComponent(network)}/fabric`;
  return publicUrl ? `${publicUrl.replace(/\/+$/, "")}${path}` : path;
}
