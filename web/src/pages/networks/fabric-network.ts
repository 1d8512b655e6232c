import type { NodeInfo } from "@/api/client";
import type { CreateFabricNetworkBody, FabricJoinStatus } from "@/data/fabric-networks/types";

/** Fabric's channel name rule: lower case letters, digits, dots and dashes, starting with a letter, under 250. */
export const CHANNEL_NAME_RULE = "Lower case letters, digits, '.' and '-', starting with a letter (at most 249).";
const CHANNEL_NAME = /^[a-z][a-z0-9.-]*$/;

export function channelNameError(name: string): string | undefined {
  if (!name) return "Channel name is required";
  if (name.length > 249) return "At most 249 characters";
  if (!CHANNEL_NAME.test(name)) return CHANNEL_NAME_RULE;
  return undefined;
}

/** Go duration as Fabric accepts it: 2s, 500ms, 1m30s. */
export const DURATION = /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/;

export interface OrgChoice {
  orgId: number;
  nodeIds: number[];
}

export interface FabricNetworkFormValues {
  name: string;
  description: string;
  peerOrgs: OrgChoice[];
  ordererOrgs: OrgChoice[];
  consensusType: "etcdraft" | "BFT";
  batchTimeout: string;
  maxMessageCount: string;
  absoluteMaxBytes: string;
  preferredMaxBytes: string;
}

export const FABRIC_NETWORK_FORM_DEFAULTS: FabricNetworkFormValues = {
  name: "",
  description: "",
  peerOrgs: [],
  ordererOrgs: [],
  consensusType: "etcdraft",
  batchTimeout: "2s",
  maxMessageCount: "500",
  absoluteMaxBytes: "",
  preferredMaxBytes: "",
};

/** Request paths the server names in field errors, per form field. */
export const FABRIC_NETWORK_FORM_FIELDS = {
  name: "name",
  description: "description",
  peerOrgs: "config.peerOrganizations",
  ordererOrgs: "config.ordererOrganizations",
  consensusType: ["config.consensusType", "config.smartBFTConsenters"],
  batchTimeout: "config.batchTimeout",
  maxMessageCount: "config.batchSize.maxMessageCount",
  absoluteMaxBytes: "config.batchSize.absoluteMaxBytes",
  preferredMaxBytes: "config.batchSize.preferredMaxBytes",
} as const;

function int(v: string): number | undefined {
  const t = v.trim();
  return /^\d+$/.test(t) ? Number(t) : undefined;
}

/** The form as POST /networks/fabric: joins are driven from the browser one node at a time. */
export function toCreateFabricNetworkBody(v: FabricNetworkFormValues): CreateFabricNetworkBody {
  const batchSize = {
    ...(int(v.maxMessageCount) !== undefined ? { maxMessageCount: int(v.maxMessageCount) } : {}),
    ...(int(v.absoluteMaxBytes) !== undefined ? { absoluteMaxBytes: int(v.absoluteMaxBytes) } : {}),
    ...(int(v.preferredMaxBytes) !== undefined ? { preferredMaxBytes: int(v.preferredMaxBytes) } : {}),
  };
  const orgs = (list: OrgChoice[]) => list.map((o) => ({ id: o.orgId, nodeIds: [...o.nodeIds] }));
  return {
    name: v.name.trim(),
    ...(v.description.trim() ? { description: v.description.trim() } : {}),
    joinNodes: false,
    config: {
      peerOrganizations: orgs(v.peerOrgs),
      ordererOrganizations: orgs(v.ordererOrgs),
      consensusType: v.consensusType,
      ...(v.batchTimeout.trim() ? { batchTimeout: v.batchTimeout.trim() } : {}),
      ...(Object.keys(batchSize).length > 0 ? { batchSize } : {}),
    },
  };
}

/** Fabric 3.x orderers can run BFT; a node without a known version can't be promised it. */
export function isFabric3(n: Pick<NodeInfo, "fabricOrderer" | "fabricPeer">): boolean {
  const v = n.fabricOrderer?.version ?? n.fabricPeer?.version ?? "";
  return /^v?3\./.test(v);
}

export function bftAllowed(orderers: readonly Pick<NodeInfo, "fabricOrderer" | "fabricPeer">[]): boolean {
  return orderers.length > 0 && orderers.every(isFabric3);
}

// ---- join progress ----

export type JoinRowState = "pending" | "joining" | "joined" | "failed";

export interface JoinRow {
  nodeId: number;
  role: "peer" | "orderer";
  name: string;
  state: JoinRowState;
  error?: string;
}

export type JoinAction =
  | { type: "plan"; rows: Omit<JoinRow, "state">[] }
  | { type: "joining"; nodeId: number }
  | { type: "joined"; nodeId: number }
  | { type: "failed"; nodeId: number; error: string };

/** Orderers first: peers catch up from the orderers once they join. */
export function joinOrder<T extends { role: "peer" | "orderer" }>(rows: readonly T[]): T[] {
  return [...rows.filter((r) => r.role === "orderer"), ...rows.filter((r) => r.role === "peer")];
}

/** Per-node join progress; only `plan` replaces rows, so retrying one node never touches the others. */
export function joinReducer(rows: JoinRow[], a: JoinAction): JoinRow[] {
  switch (a.type) {
    case "plan":
      return joinOrder(a.rows).map((r) => ({ ...r, state: "pending" }));
    case "joining":
      return rows.map((r) => (r.nodeId === a.nodeId ? { ...r, state: "joining", error: undefined } : r));
    case "joined":
      return rows.map((r) => (r.nodeId === a.nodeId ? { ...r, state: "joined", error: undefined } : r));
    case "failed":
      return rows.map((r) => (r.nodeId === a.nodeId ? { ...r, state: "failed", error: a.error } : r));
  }
}

export function joinSummary(rows: readonly JoinRow[]): Record<JoinRowState, number> {
  const out: Record<JoinRowState, number> = { pending: 0, joining: 0, joined: 0, failed: 0 };
  for (const r of rows) out[r.state]++;
  return out;
}

export const JOIN_STATUS_VARIANT: Record<FabricJoinStatus, "success" | "warning" | "destructive" | "secondary"> = {
  joined: "success",
  pending: "warning",
  failed: "destructive",
  unjoined: "secondary",
};

// ---- channel config ----

export interface BatchSettings {
  batchTimeout?: string;
  maxMessageCount?: number;
  absoluteMaxBytes?: number;
  preferredMaxBytes?: number;
}

function rec(v: unknown): Record<string, unknown> | undefined {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function dig(v: unknown, ...path: string[]): unknown {
  let cur = v;
  for (const p of path) cur = rec(cur)?.[p];
  return cur;
}

function num(v: unknown): number | undefined {
  if (typeof v === "number") return v;
  if (typeof v === "string" && /^\d+$/.test(v)) return Number(v);
  return undefined;
}

/** Batch timeout and size from configtxlator JSON of a common.Config (or a wrapper holding one). */
export function batchSettingsOf(config: unknown): BatchSettings {
  const root = rec(dig(config, "channel_group")) ? config : dig(config, "config");
  const values = dig(root, "channel_group", "groups", "Orderer", "values");
  const size = rec(dig(values, "BatchSize", "value")) ?? {};
  const timeout = dig(values, "BatchTimeout", "value", "timeout");
  const out: BatchSettings = {};
  if (typeof timeout === "string") out.batchTimeout = timeout;
  const m = num(size.max_message_count);
  const a = num(size.absolute_max_bytes);
  const p = num(size.preferred_max_bytes);
  if (m !== undefined) out.maxMessageCount = m;
  if (a !== undefined) out.absoluteMaxBytes = a;
  if (p !== undefined) out.preferredMaxBytes = p;
  return out;
}

export interface SettingChange {
  label: string;
  before: string;
  after: string;
  changed: boolean;
}

const BATCH_LABELS: [keyof BatchSettings, string][] = [
  ["batchTimeout", "Batch timeout"],
  ["maxMessageCount", "Max message count"],
  ["absoluteMaxBytes", "Absolute max bytes"],
  ["preferredMaxBytes", "Preferred max bytes"],
];

/** Previous vs new batch settings, row by row, for the minimal diff view. */
export function batchDiff(before: BatchSettings, after: BatchSettings): SettingChange[] {
  return BATCH_LABELS.map(([k, label]) => {
    const b = before[k] === undefined ? "—" : String(before[k]);
    const a = after[k] === undefined ? "—" : String(after[k]);
    return { label, before: b, after: a, changed: a !== b };
  });
}

export interface BatchFormValues {
  batchTimeout: string;
  maxMessageCount: string;
  absoluteMaxBytes: string;
  preferredMaxBytes: string;
}

/** Only the settings that differ from the current config become operations. */
export function batchOperations(
  current: BatchSettings,
  v: BatchFormValues,
): (
  | { type: "update_batch_timeout"; payload: { timeout: string } }
  | {
      type: "update_batch_size";
      payload: { max_message_count?: number; absolute_max_bytes?: number; preferred_max_bytes?: number };
    }
)[] {
  const ops: ReturnType<typeof batchOperations> = [];
  const t = v.batchTimeout.trim();
  if (t && t !== current.batchTimeout) ops.push({ type: "update_batch_timeout", payload: { timeout: t } });
  const m = int(v.maxMessageCount);
  const a = int(v.absoluteMaxBytes);
  const p = int(v.preferredMaxBytes);
  if (
    (m !== undefined && m !== current.maxMessageCount) ||
    (a !== undefined && a !== current.absoluteMaxBytes) ||
    (p !== undefined && p !== current.preferredMaxBytes)
  ) {
    ops.push({
      type: "update_batch_size",
      payload: {
        ...(m !== undefined ? { max_message_count: m } : {}),
        ...(a !== undefined ? { absolute_max_bytes: a } : {}),
        ...(p !== undefined ? { preferred_max_bytes: p } : {}),
      },
    });
  }
  return ops;
}

/** Host and port of an endpoint such as "peer0.org1:7051". */
export function hostPort(endpoint: string | undefined): { host: string; port: number } | undefined {
  const m = /^(.+):(\d{1,5})$/.exec(endpoint ?? "");
  return m ? { host: m[1]!, port: Number(m[2]) } : undefined;
}

/** Organization ids of this console from the network's creation parameters (base64 JSON). */
export function networkOrgIds(configB64: string): { peer: number[]; orderer: number[] } {
  try {
    const raw = JSON.parse(atob(configB64)) as unknown;
    const c = rec(dig(raw, "config")) ?? rec(raw) ?? {};
    const ids = (v: unknown): number[] =>
      Array.isArray(v) ? v.map((o) => num(rec(o)?.id)).filter((x): x is number => x !== undefined) : [];
    return { peer: ids(c.peerOrganizations), orderer: ids(c.ordererOrganizations) };
  } catch {
    return { peer: [], orderer: [] };
  }
}

function channelGroupOf(config: unknown): unknown {
  return rec(dig(config, "channel_group")) ? dig(config, "channel_group") : dig(config, "config", "channel_group");
}

/**
 * The org groups under Application or Orderer, keyed by MSP ID. The group key is the org's name in
 * configtx, which is usually but not necessarily its MSP ID, so the MSP value's own name wins.
 */
function orgGroupsOf(config: unknown, section: "Application" | "Orderer"): Map<string, unknown> {
  const groups = rec(dig(channelGroupOf(config), "groups", section, "groups")) ?? {};
  const out = new Map<string, unknown>();
  for (const [key, group] of Object.entries(groups)) {
    const name = dig(group, "values", "MSP", "value", "config", "name");
    out.set(typeof name === "string" && name ? name : key, group);
  }
  return out;
}

/** MSP IDs of the channel's peer (Application) and orderer orgs in configtxlator JSON, sorted. */
export function channelOrgsOf(config: unknown): { peer: string[]; orderer: string[] } {
  const ids = (section: "Application" | "Orderer"): string[] => [...orgGroupsOf(config, section).keys()].sort();
  return { peer: ids("Application"), orderer: ids("Orderer") };
}

/** One org of the channel; `orgId` is set when this console holds the org. */
export interface ChannelOrgRow {
  mspId: string;
  orgId?: number;
  peer: boolean;
  orderer: boolean;
}

/** The channel's orgs (from its config) matched to this console's orgs by MSP ID; orderer orgs first. */
export function channelOrgRows(
  channel: { peer: readonly string[]; orderer: readonly string[] },
  held: readonly { id: number; mspId: string }[],
): ChannelOrgRow[] {
  const byMsp = new Map(held.map((o) => [o.mspId, o.id]));
  const msps = [...new Set([...channel.orderer, ...channel.peer])];
  return msps.map((mspId) => ({
    mspId,
    ...(byMsp.has(mspId) ? { orgId: byMsp.get(mspId) } : {}),
    peer: channel.peer.includes(mspId),
    orderer: channel.orderer.includes(mspId),
  }));
}

/** Fallback rows from the creation request's org ids; only orgs this console still holds can be named. */
export function creationOrgRows(
  ids: { peer: readonly number[]; orderer: readonly number[] },
  held: readonly { id: number; mspId: string }[],
): ChannelOrgRow[] {
  return held
    .filter((o) => ids.peer.includes(o.id) || ids.orderer.includes(o.id))
    .map((o) => ({ mspId: o.mspId, orgId: o.id, peer: ids.peer.includes(o.id), orderer: ids.orderer.includes(o.id) }));
}

/** An application org's anchor peers in configtxlator JSON. */
export function anchorPeersOf(config: unknown, mspId: string): { host: string; port: number }[] {
  const list = dig(orgGroupsOf(config, "Application").get(mspId), "values", "AnchorPeers", "value");
  const peers = dig(list, "anchor_peers");
  if (!Array.isArray(peers)) return [];
  return peers.map((p) => ({ host: String(rec(p)?.host ?? ""), port: num(rec(p)?.port) ?? 0 })).filter((p) => p.host);
}
