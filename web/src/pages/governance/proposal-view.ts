import type { ConnectedPeer } from "@/data/federation/types";
import type { Proposal, ProposalEvent, ProposalPolicy, ProposalStatus } from "@/data/governance/types";

/** Where the signatures stand against the channel's modification policy, for the progress bar. */
export interface PolicyProgress {
  /** Orgs whose signatures count toward the strictest policy. */
  signed: number;
  /** Orgs that may sign (signed + missing of the strictest policy). */
  total: number;
  /** How many must sign. */
  required: number;
  /** Signatures still needed to meet it (0 once satisfied). */
  remaining: number;
  /** Width of the filled part, 0–100. */
  percent: number;
  /** Where the "required" mark sits, 0–100. */
  requiredPercent: number;
  satisfied: boolean;
  /** The server's wording, e.g. "2 of 3 orgs signed". */
  summary: string;
}

/**
 * The bar's numbers from the server's count. The summary names the strictest policy's candidates
 * ("2 of 3"); `missing` is the union over unmet policies, so the summary's total wins when present.
 */
export function policyProgress(policy: ProposalPolicy): PolicyProgress {
  const m = /(\d+) of (\d+)/.exec(policy.summary);
  const signed = m ? Number(m[1]) : policy.signed.length;
  const total = Math.max(m ? Number(m[2]) : policy.signed.length + policy.missing.length, signed, policy.required, 1);
  const required = Math.max(policy.required, 0);
  const remaining = policy.satisfied ? 0 : Math.max(required - signed, policy.missing.length > 0 ? 1 : 0);
  const pct = (n: number): number => Math.round((Math.min(n, total) / total) * 100);
  return {
    signed,
    total,
    required,
    remaining,
    percent: pct(signed),
    requiredPercent: pct(required),
    satisfied: policy.satisfied,
    summary: policy.summary || `${signed} of ${total} orgs signed`,
  };
}

/** "Policy met: ready to submit", or how many more signatures it needs. */
export function policyVerdict(p: PolicyProgress): string {
  if (p.satisfied) return "Policy met: ready to submit";
  return `${p.remaining} more signature${p.remaining === 1 ? "" : "s"} needed (${p.required} required)`;
}

/** One config element a proposal's update adds, removes or changes (computed by the server). */
export type ConfigChange = Proposal["changes"][number];

/** How many elements each kind touches, e.g. "1 added, 2 changed, 1 removed". */
export function diffSummary(changes: readonly Pick<ConfigChange, "kind">[]): string {
  const n = (k: ConfigChange["kind"]): number => changes.filter((c) => c.kind === k).length;
  const parts = [
    n("added") && `${n("added")} added`,
    n("changed") && `${n("changed")} changed`,
    n("removed") && `${n("removed")} removed`,
  ].filter(Boolean);
  return parts.length ? parts.join(", ") : "No changes";
}

export const STATUS_LABEL: Record<ProposalStatus, string> = {
  pending: "Pending",
  stale: "Stale",
  submitted: "Submitted",
};
export const STATUS_VARIANT: Record<ProposalStatus, "warning" | "destructive" | "success"> = {
  pending: "warning",
  stale: "destructive",
  submitted: "success",
};

/** The status a screen shows: a pending proposal the server marked stale reads "Stale". */
export function displayStatus(p: Pick<Proposal, "status" | "stale">): ProposalStatus {
  return p.status === "pending" && p.stale ? "stale" : p.status;
}

/** Whether this console proposed it (a received copy names the proposer's node id). */
export function isProposer(p: Pick<Proposal, "origin_node_id">): boolean {
  return p.origin_node_id === "";
}

/** The connection to the proposer's console: its node id is the proposal's origin; a live one first. */
export function proposerConnection(
  p: Pick<Proposal, "origin_node_id">,
  peers: readonly ConnectedPeer[] | undefined,
): ConnectedPeer | undefined {
  if (!p.origin_node_id) return undefined;
  const matches = (peers ?? []).filter((c) => c.node_id === p.origin_node_id && c.status !== "revoked");
  return matches.find((c) => c.status === "connected") ?? matches[0];
}

/** The orgs this console can sign as: orgs it holds that the policy counts (signed or missing). */
export function signableOrgs(policy: ProposalPolicy, held: readonly { mspId: string }[]): string[] {
  const counted = new Set([...policy.signed, ...policy.missing]);
  return [...new Set(held.map((o) => o.mspId))].filter((m) => counted.has(m)).sort();
}

const EVENT_TITLE: Record<string, string> = {
  proposal_created: "Proposal created",
  signature_added: "Signed",
  signature_withdrawn: "Signature withdrawn",
  proposal_shared: "Shared",
  proposal_received: "Received",
  signature_shared: "Signature sent",
  signature_received: "Signature received",
  proposal_stale: "Became stale",
  proposal_recomputed: "Recomputed",
  proposal_submitted: "Submitted",
  status_sent: "Status sent",
  status_send_failed: "Status not delivered",
};

function parseData(raw: string): Record<string, unknown> {
  try {
    const v = JSON.parse(raw) as unknown;
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const s = (v: unknown): string | undefined =>
  typeof v === "string" && v !== "" ? v : typeof v === "number" ? String(v) : undefined;

/** One timeline entry as a title and a line of detail from its JSON data. */
export function eventView(e: Pick<ProposalEvent, "event_type" | "data">): { title: string; detail: string } {
  const d = parseData(e.data);
  const title = EVENT_TITLE[e.event_type] ?? e.event_type.replace(/_/g, " ");
  const parts: string[] = [];
  if (s(d.msp_id)) parts.push(`as ${s(d.msp_id)}`);
  if (s(d.by)) parts.push(`by ${s(d.by)}`);
  if (s(d.to_node_id)) parts.push(`to ${s(d.to_node_id)}`);
  if (s(d.from_node_id)) parts.push(`from ${s(d.from_node_id)}`);
  if (s(d.from_user)) parts.push(`(${s(d.from_user)})`);
  if (s(d.by_node_id)) parts.push(`by ${s(d.by_node_id)}`);
  if (s(d.config_sequence)) parts.push(`config sequence ${s(d.config_sequence)}`);
  if (s(d.tx_id)) parts.push(`tx ${s(d.tx_id)}`);
  if (s(d.error)) parts.push(s(d.error)!);
  return { title, detail: parts.join(" ") };
}

/**
 * The detail page of a proposal. A received copy with no local network (`network_id` 0) has no
 * network in its path, so it opens on the sign page, which shows the same proposal.
 */
export function proposalPath(p: Pick<Proposal, "id" | "network_id">): string {
  return p.network_id > 0 ? `/networks/${p.network_id}/fabric/proposals/${p.id}` : signPath(p.id);
}

/** The landing page of a received proposal (notification link): summary, diff, sign, send back. */
export function signPath(proposalId: string): string {
  return `/networks/fabric/proposals/${proposalId}/sign`;
}
