import type { CreateNodeBody } from "@/api/client";
import type { CreateFabricNetworkBody } from "@/data/fabric-networks/types";
import {
  channelNameError,
  DURATION,
  FABRIC_NETWORK_FORM_DEFAULTS,
  toCreateFabricNetworkBody,
} from "@/pages/networks/fabric-network";
import {
  FABRIC_FORM_EMPTY,
  NODE_NAME,
  suggestName,
  toCreateFabricBody,
  validHostPort,
  type FabricKind,
} from "@/pages/nodes/fabric-form";
import { MSP_ID_PATTERN, MSP_ID_RULE } from "@/pages/organizations/organization-form";

// ---- the form ----

export type OrgChoice =
  | { mode: "new"; mspId: string; name: string; description: string }
  | { mode: "existing"; orgId: number; mspId: string };

/** One node the wizard creates; addresses come from GET /nodes/defaults/fabric. */
export interface NodeSpec {
  key: string;
  role: FabricKind;
  name: string;
  listenAddress: string;
  /** Peers only. */
  chaincodeAddress: string;
  /** Orderers only. */
  adminAddress: string;
  operationsListenAddress: string;
  externalEndpoint: string;
}

export interface WizardForm {
  org: OrgChoice;
  nodes: NodeSpec[];
  channel: { name: string; batchTimeout: string };
}

export const DEFAULT_PEERS = 2;
export const DEFAULT_ORDERERS = 3;
export const MAX_NODES = 10;

export interface ProposedAddresses {
  peers: {
    listenAddress: string;
    chaincodeAddress: string;
    operationsListenAddress: string;
    externalEndpoint: string;
  }[];
  orderers: {
    listenAddress: string;
    adminAddress: string;
    operationsListenAddress: string;
    externalEndpoint: string;
  }[];
}

/** A name not in `taken`: peer0-org1, else peer1-org1, … */
function freeName(kind: FabricKind, mspId: string, start: number, taken: Set<string>): string {
  for (let i = start; ; i++) {
    const n = suggestName(kind, mspId, i);
    if (!taken.has(n)) {
      taken.add(n);
      return n;
    }
  }
}

/** Orderers then peers, named after the org and filled with the server's proposed addresses. */
export function nodeSpecsFrom(d: ProposedAddresses, mspId: string, existingNames: readonly string[] = []): NodeSpec[] {
  const taken = new Set(existingNames);
  const orderers = d.orderers.map((o, i): NodeSpec => ({
    key: `orderer-${i}`,
    role: "orderer",
    name: freeName("orderer", mspId, i, taken),
    listenAddress: o.listenAddress,
    chaincodeAddress: "",
    adminAddress: o.adminAddress,
    operationsListenAddress: o.operationsListenAddress,
    externalEndpoint: o.externalEndpoint,
  }));
  const peers = d.peers.map((p, i): NodeSpec => ({
    key: `peer-${i}`,
    role: "peer",
    name: freeName("peer", mspId, i, taken),
    listenAddress: p.listenAddress,
    chaincodeAddress: p.chaincodeAddress,
    adminAddress: "",
    operationsListenAddress: p.operationsListenAddress,
    externalEndpoint: p.externalEndpoint,
  }));
  return [...orderers, ...peers];
}

// ---- validation, step by step ----

export function orgError(org: OrgChoice, existingMspIds: readonly string[]): string | undefined {
  if (org.mode === "existing") return org.orgId > 0 ? undefined : "Choose an organization";
  const msp = org.mspId.trim();
  if (!msp) return "MSP ID is required";
  if (!MSP_ID_PATTERN.test(msp)) return MSP_ID_RULE;
  if (existingMspIds.includes(msp)) return `${msp} already exists; pick it as an existing organization`;
  return undefined;
}

export function countError(v: string, role: FabricKind): string | undefined {
  const min = 1;
  if (!/^\d+$/.test(v.trim())) return "A whole number";
  const n = Number(v);
  if (n < min) return `At least ${min} ${role}`;
  if (n > MAX_NODES) return `At most ${MAX_NODES}`;
  return undefined;
}

/** Field errors of the node list, keyed "<node key>.<field>". */
export function nodeErrors(nodes: readonly NodeSpec[]): Record<string, string> {
  const out: Record<string, string> = {};
  const names = new Map<string, number>();
  for (const n of nodes) names.set(n.name.trim(), (names.get(n.name.trim()) ?? 0) + 1);
  const addrs = new Map<string, number>();
  const addrFields = (n: NodeSpec): (keyof NodeSpec)[] =>
    n.role === "peer"
      ? ["listenAddress", "chaincodeAddress", "operationsListenAddress"]
      : ["listenAddress", "adminAddress", "operationsListenAddress"];
  for (const n of nodes)
    for (const f of addrFields(n)) {
      const port = n[f].trim().split(":").at(-1) ?? "";
      addrs.set(port, (addrs.get(port) ?? 0) + 1);
    }
  for (const n of nodes) {
    const name = n.name.trim();
    if (!name) out[`${n.key}.name`] = "Name is required";
    else if (!NODE_NAME.test(name)) out[`${n.key}.name`] = "Letters, digits, spaces, '.', '_' or '-'";
    else if ((names.get(name) ?? 0) > 1) out[`${n.key}.name`] = "Names must differ";
    for (const f of [...addrFields(n), "externalEndpoint" as const]) {
      if (!validHostPort(n[f])) out[`${n.key}.${f}`] = "host:port";
      else if (f !== "externalEndpoint" && (addrs.get(n[f].trim().split(":").at(-1) ?? "") ?? 0) > 1)
        out[`${n.key}.${f}`] = "Port used twice";
    }
  }
  return out;
}

export function channelErrors(c: WizardForm["channel"]): { name?: string; batchTimeout?: string } {
  const out: { name?: string; batchTimeout?: string } = {};
  const n = channelNameError(c.name.trim());
  if (n) out.name = n;
  if (c.batchTimeout.trim() && !DURATION.test(c.batchTimeout.trim()))
    out.batchTimeout = "A duration such as 2s or 500ms";
  return out;
}

// ---- the plan: form → ordered actions ----

export type ActionKind = "create-org" | "create-node" | "wait-node" | "create-channel" | "join";

export interface PlanAction {
  key: string;
  kind: ActionKind;
  label: string;
  /** create-node, wait-node and join: which node. */
  node?: NodeSpec;
}

/** Create the org (if new) → each node, one by one → wait for each RUNNING → the channel → join orderers, then peers. */
export function buildPlan(f: WizardForm): PlanAction[] {
  const out: PlanAction[] = [];
  if (f.org.mode === "new")
    out.push({ key: "org", kind: "create-org", label: `Create organization ${f.org.mspId.trim()}` });
  const byRole = (r: FabricKind) => f.nodes.filter((n) => n.role === r);
  const ordered = [...byRole("orderer"), ...byRole("peer")];
  for (const n of ordered)
    out.push({ key: `create:${n.key}`, kind: "create-node", label: `Create ${n.role} ${n.name.trim()}`, node: n });
  for (const n of ordered)
    out.push({ key: `wait:${n.key}`, kind: "wait-node", label: `Wait for ${n.name.trim()} to run`, node: n });
  out.push({ key: "channel", kind: "create-channel", label: `Create channel ${f.channel.name.trim()}` });
  for (const n of ordered)
    out.push({ key: `join:${n.key}`, kind: "join", label: `Join ${n.role} ${n.name.trim()}`, node: n });
  return out;
}

/** What earlier actions produced, which later ones need. */
export interface WizardContext {
  orgId?: number;
  mspId: string;
  /** node key → created node id. */
  nodeIds: Record<string, number>;
  networkId?: number;
  networkName?: string;
}

export function initialContext(f: WizardForm): WizardContext {
  return {
    mspId: f.org.mspId.trim(),
    nodeIds: {},
    ...(f.org.mode === "existing" ? { orgId: f.org.orgId } : {}),
  };
}

export function nodeBody(n: NodeSpec, orgId: number, mspId: string): CreateNodeBody {
  return toCreateFabricBody(
    {
      ...FABRIC_FORM_EMPTY,
      kind: n.role,
      name: n.name,
      organizationId: String(orgId),
      listenAddress: n.listenAddress,
      chaincodeAddress: n.chaincodeAddress,
      adminAddress: n.adminAddress,
      operationsListenAddress: n.operationsListenAddress,
      externalEndpoint: n.externalEndpoint,
    },
    mspId,
  );
}

/** POST /networks/fabric with joinNodes false: one org is both orderer and application org. */
export function channelBody(f: WizardForm, ctx: WizardContext): CreateFabricNetworkBody {
  const ids = (r: FabricKind) =>
    f.nodes
      .filter((n) => n.role === r)
      .map((n) => ctx.nodeIds[n.key])
      .filter((x): x is number => x !== undefined);
  const orgId = ctx.orgId ?? 0;
  return toCreateFabricNetworkBody({
    ...FABRIC_NETWORK_FORM_DEFAULTS,
    name: f.channel.name,
    consensusType: "etcdraft",
    batchTimeout: f.channel.batchTimeout,
    peerOrgs: [{ orgId, nodeIds: ids("peer") }],
    ordererOrgs: [{ orgId, nodeIds: ids("orderer") }],
  });
}

// ---- progress ----

export type RowState = "pending" | "running" | "done" | "failed";

export interface ProgressRow extends PlanAction {
  state: RowState;
  /** The server's message on failure, or a note while running (e.g. the node's status). */
  message?: string;
}

export interface WizardState {
  rows: ProgressRow[];
  ctx: WizardContext;
}

export type ContextPatch = { orgId?: number; nodeId?: [string, number]; networkId?: number; networkName?: string };

export type ProgressAction =
  | { type: "plan"; actions: PlanAction[]; ctx: WizardContext }
  | { type: "start"; key: string }
  | { type: "note"; key: string; message: string }
  | { type: "done"; key: string; patch?: ContextPatch }
  | { type: "failed"; key: string; error: string };

export const EMPTY_WIZARD: WizardState = { rows: [], ctx: { mspId: "", nodeIds: {} } };

function applyPatch(ctx: WizardContext, p: ContextPatch | undefined): WizardContext {
  if (!p) return ctx;
  return {
    ...ctx,
    ...(p.orgId !== undefined ? { orgId: p.orgId } : {}),
    ...(p.networkId !== undefined ? { networkId: p.networkId } : {}),
    ...(p.networkName !== undefined ? { networkName: p.networkName } : {}),
    nodeIds: p.nodeId ? { ...ctx.nodeIds, [p.nodeId[0]]: p.nodeId[1] } : ctx.nodeIds,
  };
}

/** Progress of the plan; a done row never changes again, so nothing already done is redone. */
export function wizardReducer(s: WizardState, a: ProgressAction): WizardState {
  const set = (key: string, f: (r: ProgressRow) => ProgressRow): ProgressRow[] =>
    s.rows.map((r) => (r.key === key && r.state !== "done" ? f(r) : r));
  switch (a.type) {
    case "plan":
      return { rows: a.actions.map((x) => ({ ...x, state: "pending" })), ctx: a.ctx };
    case "start":
      return { ...s, rows: set(a.key, (r) => ({ ...r, state: "running", message: undefined })) };
    case "note":
      return { ...s, rows: set(a.key, (r) => (r.state === "running" ? { ...r, message: a.message } : r)) };
    case "done": {
      const row = s.rows.find((r) => r.key === a.key);
      if (!row || row.state === "done") return s;
      return {
        rows: set(a.key, (r) => ({ ...r, state: "done", message: undefined })),
        ctx: applyPatch(s.ctx, a.patch),
      };
    }
    case "failed":
      return { ...s, rows: set(a.key, (r) => ({ ...r, state: "failed", message: a.error })) };
  }
}

/** The next action to run: the first unfinished row if it is pending, or if it is the failed row being retried. */
export function nextAction(s: WizardState, retryKey?: string): ProgressRow | undefined {
  const r = s.rows.find((x) => x.state !== "done");
  if (!r) return undefined;
  if (r.state === "pending" || (r.state === "failed" && r.key === retryKey)) return r;
  return undefined;
}

export function progressSummary(rows: readonly ProgressRow[]): Record<RowState, number> {
  const out: Record<RowState, number> = { pending: 0, running: 0, done: 0, failed: 0 };
  for (const r of rows) out[r.state]++;
  return out;
}

export function allDone(s: WizardState): boolean {
  return s.rows.length > 0 && s.rows.every((r) => r.state === "done");
}
