import type { BulkCreateBesuBody } from "@/api/client";
import { BESU_FORM_DEFAULTS } from "@/pages/networks/besu-form";

/** The bus event the server publishes while a bulk creation runs. */
export const BULK_PROGRESS_EVENT = "besu.bulk_create.progress";

/** The bulk-create form (strings, as the inputs hold them). */
export interface BulkFormValues {
  networkName: string;
  description: string;
  nodeCount: string;
  chainId: string;
  blockPeriod: string;
  epochLength: string;
  requestTimeout: string;
  gasLimit: string;
  alloc: { address: string; balance: string }[];
  externalIp: string;
  start: boolean;
}

export const BULK_FORM_DEFAULTS: BulkFormValues = {
  networkName: "",
  description: "",
  nodeCount: "4",
  chainId: BESU_FORM_DEFAULTS.chainId,
  blockPeriod: BESU_FORM_DEFAULTS.blockPeriod,
  epochLength: BESU_FORM_DEFAULTS.epochLength,
  requestTimeout: BESU_FORM_DEFAULTS.requestTimeout,
  gasLimit: BESU_FORM_DEFAULTS.gasLimit,
  alloc: [],
  externalIp: "",
  start: true,
};

export const MAX_BULK_NODES = 16;

/** Where the server reports each form field's errors (see formErrorsFrom). */
export const BULK_FORM_FIELDS = {
  networkName: "networkName",
  description: "description",
  nodeCount: "nodeCount",
  chainId: "config.chainId",
  blockPeriod: "config.blockPeriod",
  epochLength: "config.epochLength",
  requestTimeout: "config.requestTimeout",
  gasLimit: "config.gasLimit",
  alloc: "config.alloc",
  externalIp: "externalIp",
} as const;

/** Maps the form to POST /networks/besu/bulk-create: numbers parsed, empty rows dropped, alloc keyed by address. */
export function toBulkCreateBody(v: BulkFormValues): BulkCreateBesuBody {
  const alloc: Record<string, { balance: string }> = {};
  for (const row of v.alloc) {
    if (row.address.trim()) alloc[row.address.trim()] = { balance: row.balance.trim() || "0" };
  }
  return {
    networkName: v.networkName.trim(),
    ...(v.description.trim() ? { description: v.description.trim() } : {}),
    nodeCount: Number(v.nodeCount),
    config: {
      consensus: "qbft",
      chainId: Number(v.chainId),
      blockPeriod: Number(v.blockPeriod),
      epochLength: Number(v.epochLength),
      requestTimeout: Number(v.requestTimeout),
      ...(v.gasLimit.trim() ? { gasLimit: v.gasLimit.trim() } : {}),
      ...(Object.keys(alloc).length ? { alloc } : {}),
    },
    ...(v.externalIp.trim() ? { externalIp: v.externalIp.trim() } : {}),
    start: v.start,
  };
}

export type BulkPhase = "keys" | "network" | "nodes" | "done" | "failed" | "rolled_back";
export type StepState = "pending" | "running" | "done" | "failed";

/** Progress of one bulk creation, built from the request's lifecycle and the server's events. */
export interface BulkProgress {
  /** idle before submit; running until the response (or a terminal event) arrives. */
  status: "idle" | "running" | "done" | "failed";
  networkName: string;
  total: number;
  keys: number;
  network: boolean;
  nodes: number;
  /** The server rolled everything back after the failure. */
  rolledBack: boolean;
  messages: { phase: BulkPhase; message: string }[];
  error?: string;
}

export const BULK_IDLE: BulkProgress = {
  status: "idle",
  networkName: "",
  total: 0,
  keys: 0,
  network: false,
  nodes: 0,
  rolledBack: false,
  messages: [],
};

export type BulkProgressAction =
  | { type: "start"; networkName: string; total: number }
  | { type: "event"; data: unknown }
  | { type: "succeeded" }
  | { type: "failed"; error: string }
  | { type: "reset" };

const PHASES: readonly BulkPhase[] = ["keys", "network", "nodes", "done", "failed", "rolled_back"];

/** The event's data when it is a well-formed progress event; undefined otherwise. */
export function parseProgress(
  data: unknown,
): { networkName: string; phase: BulkPhase; done: number; total: number; message: string } | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const d = data as Record<string, unknown>;
  if (typeof d.networkName !== "string" || !PHASES.includes(d.phase as BulkPhase)) return undefined;
  return {
    networkName: d.networkName,
    phase: d.phase as BulkPhase,
    done: typeof d.done === "number" ? d.done : 0,
    total: typeof d.total === "number" ? d.total : 0,
    message: typeof d.message === "string" ? d.message : "",
  };
}

/**
 * Folds the request lifecycle and `besu.bulk_create.progress` events into progress. Events of other
 * networks (another user's creation) and events before `start` are ignored.
 */
export function bulkProgressReducer(s: BulkProgress, a: BulkProgressAction): BulkProgress {
  switch (a.type) {
    case "reset":
      return BULK_IDLE;
    case "start":
      return { ...BULK_IDLE, status: "running", networkName: a.networkName, total: a.total };
    case "succeeded":
      return { ...s, status: "done", keys: s.total, network: true, nodes: s.total };
    case "failed":
      return { ...s, status: "failed", error: a.error };
    case "event": {
      const e = parseProgress(a.data);
      if (!e || s.status === "idle" || e.networkName !== s.networkName) return s;
      const next: BulkProgress = {
        ...s,
        messages: e.message ? [...s.messages, { phase: e.phase, message: e.message }] : s.messages,
      };
      switch (e.phase) {
        case "keys":
          return { ...next, keys: Math.max(s.keys, e.done) };
        case "network":
          return { ...next, keys: s.total, network: true };
        case "nodes":
          return { ...next, keys: s.total, network: true, nodes: Math.max(s.nodes, e.done) };
        case "done":
          return next;
        case "failed":
          return { ...next, status: "failed", error: s.error ?? e.message };
        case "rolled_back":
          return { ...next, status: "failed", rolledBack: true };
      }
    }
  }
}

export interface BulkStep {
  key: "keys" | "network" | "nodes";
  label: string;
  state: StepState;
}

/** The three steps with counts: keys k/N, network, nodes n/N. The first unfinished one is running or failed. */
export function bulkSteps(s: BulkProgress): BulkStep[] {
  const complete = [s.total > 0 && s.keys >= s.total, s.network, s.total > 0 && s.nodes >= s.total];
  const current = complete.indexOf(false);
  const stateOf = (i: number): StepState => {
    if (complete[i] || s.status === "done") return "done";
    if (i !== current || s.status === "idle") return "pending";
    return s.status === "failed" ? "failed" : "running";
  };
  return [
    { key: "keys", label: `Validator keys ${s.keys}/${s.total}`, state: stateOf(0) },
    { key: "network", label: "Network and genesis", state: stateOf(1) },
    { key: "nodes", label: `Nodes ${s.nodes}/${s.total}`, state: stateOf(2) },
  ];
}

/** What the finished bulk creation amounts to, from its nodes' current statuses. */
export interface BulkOutcome {
  tone: "ready" | "starting" | "not-started" | "error";
  text: string;
}

/**
 * "Ready" only when every node runs. A node in ERROR is said first, with its message; nodes still
 * starting say so; nodes created with start off are "not started".
 */
export function bulkOutcome(
  networkName: string,
  nodes: readonly { name: string; status: string; errorMessage?: string | null }[],
  started: boolean,
): BulkOutcome {
  const failed = nodes.filter((n) => n.status.toUpperCase() === "ERROR");
  if (failed.length) {
    const first = failed[0]!;
    const why = first.errorMessage ? `: ${first.errorMessage}` : "";
    return {
      tone: "error",
      text: `${networkName} was created, but ${failed.length} of ${nodes.length} nodes ${failed.length === 1 ? "is" : "are"} in ERROR (${first.name}${why}).`,
    };
  }
  if (nodes.length && nodes.every((n) => n.status.toUpperCase() === "RUNNING")) {
    return { tone: "ready", text: `${networkName} is ready.` };
  }
  if (!started) {
    return {
      tone: "not-started",
      text: `${networkName} was created. Its nodes are not started; start them from their pages.`,
    };
  }
  return { tone: "starting", text: `${networkName} was created; its nodes are starting…` };
}
