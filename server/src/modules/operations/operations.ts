import { randomUUID } from "node:crypto";
import { errorMessage } from "../../http/errors.js";

/** Where one long operation stands: what a screen shows as a stepper, and what a reload reads back. */
export interface OperationState {
  id: string;
  /** What runs: `project.run`, `backup`, `chaincode.deploy`, `chaincode.install`, ... */
  kind: string;
  /** The resource it works on, `<type>:<id>` (`chaincode_project:3`, `backup:7`, `chaincode_definition:5`). */
  resource: string;
  /** Said on screen ("Run assets", "Backup to s3-main"). */
  label: string;
  /** The phases in order: the planned ones, plus any a run entered that was not planned. */
  phases: string[];
  /** The phase running now (the last one entered once the operation ended). */
  phase: string | null;
  phaseStartedAt: string | null;
  /** Milliseconds each finished phase took. */
  durations: Record<string, number>;
  /** The step inside the phase (`npm install`, a node's name), if any. */
  detail: string | null;
  /** 0-100 inside the phase, when the work reports it (restic's upload). */
  percent: number | null;
  status: "running" | "succeeded" | "failed";
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
  /** Who started it ("" for the scheduler). */
  user: string;
}

/** What the code doing the work holds: each call updates the state and publishes it. */
export interface OperationHandle {
  readonly id: string;
  /** Enters a phase; one not planned is inserted after the current one. */
  phase(name: string, detail?: string): void;
  /** The step inside the current phase and/or its percent. */
  progress(p: { detail?: string | null; percent?: number | null }): void;
  succeed(): void;
  fail(err: unknown): void;
}

export interface BeginOperation {
  kind: string;
  resource: string;
  label: string;
  phases: readonly string[];
  user?: string;
}

/** Minimal bus surface: operations publish, they never subscribe here. */
interface Publisher {
  publish(type: string, data: Record<string, unknown>): unknown;
}

export const OPERATION_EVENT = "operation.progress";

/**
 * Running and recently finished long operations, in memory: each change goes out on the bus as
 * `operation.progress` (the websocket relays it), and `list` answers a page that was reloaded
 * meanwhile with the same state, its `startedAt` the real start. A console restart forgets them,
 * which is right: the work they describe ended with the process (the modules' own rows say how).
 * Finished ones stay `keepMs` so a screen opened just after still shows the outcome; then they go.
 */
export function createOperations(deps: {
  bus: Publisher;
  now?: () => number;
  /** How long a finished operation is still listed (default 10 minutes). */
  keepMs?: number;
  /** At most this many finished operations are kept (the oldest go first). */
  maxFinished?: number;
}) {
  const now = deps.now ?? Date.now;
  const keepMs = deps.keepMs ?? 10 * 60_000;
  const maxFinished = deps.maxFinished ?? 200;
  const ops = new Map<string, OperationState>();
  const iso = (): string => new Date(now()).toISOString();

  function prune(): void {
    const finished = [...ops.values()].filter((o) => o.finishedAt !== null);
    const cutoff = now() - keepMs;
    for (const o of finished) if (Date.parse(o.finishedAt as string) < cutoff) ops.delete(o.id);
    const left = finished.filter((o) => ops.has(o.id));
    for (const o of left.slice(0, Math.max(0, left.length - maxFinished))) ops.delete(o.id);
  }

  function publish(o: OperationState): void {
    deps.bus.publish(OPERATION_EVENT, { ...o, phases: [...o.phases], durations: { ...o.durations } });
  }

  /** Closes the current phase's clock (its duration) at `at`. */
  function closePhase(o: OperationState, at: number): void {
    if (o.phase && o.phaseStartedAt) o.durations[o.phase] = Math.max(0, at - Date.parse(o.phaseStartedAt));
  }

  return {
    begin(input: BeginOperation): OperationHandle {
      prune();
      const o: OperationState = {
        id: randomUUID(),
        kind: input.kind,
        resource: input.resource,
        label: input.label,
        phases: [...input.phases],
        phase: null,
        phaseStartedAt: null,
        durations: {},
        detail: null,
        percent: null,
        status: "running",
        error: null,
        startedAt: iso(),
        finishedAt: null,
        user: input.user ?? "",
      };
      ops.set(o.id, o);
      publish(o);
      const running = (): boolean => o.status === "running";
      return {
        id: o.id,
        phase(name, detail) {
          if (!running()) return;
          if (o.phase === name) {
            if (detail !== undefined && detail !== o.detail) {
              o.detail = detail;
              publish(o);
            }
            return;
          }
          const t = now();
          closePhase(o, t);
          if (!o.phases.includes(name)) {
            const at = o.phase ? o.phases.indexOf(o.phase) + 1 : 0;
            o.phases.splice(at, 0, name);
          }
          o.phase = name;
          o.phaseStartedAt = new Date(t).toISOString();
          o.detail = detail ?? null;
          o.percent = null;
          publish(o);
        },
        progress(p) {
          if (!running()) return;
          const percent = p.percent === undefined ? o.percent : p.percent === null ? null : Math.round(p.percent);
          const detail = p.detail === undefined ? o.detail : p.detail;
          // restic reports many times a second: only a visible change goes out.
          if (percent === o.percent && detail === o.detail) return;
          o.percent = percent;
          o.detail = detail;
          publish(o);
        },
        succeed() {
          if (!running()) return;
          const t = now();
          closePhase(o, t);
          o.status = "succeeded";
          o.finishedAt = new Date(t).toISOString();
          o.detail = null;
          o.percent = null;
          publish(o);
        },
        fail(err) {
          if (!running()) return;
          const t = now();
          closePhase(o, t);
          o.status = "failed";
          o.error = errorMessage(err);
          o.finishedAt = new Date(t).toISOString();
          publish(o);
        },
      };
    },

    /** Running and recently finished operations, newest first, optionally of one resource or kind. */
    list(filter: { resource?: string | undefined; kind?: string | undefined } = {}): OperationState[] {
      prune();
      // Newest first; of two started in the same millisecond, the later one first.
      return [...ops.values()]
        .reverse()
        .filter((o) => (filter.resource === undefined || o.resource === filter.resource) && matchKind(o, filter.kind))
        .sort((a, b) => b.startedAt.localeCompare(a.startedAt))
        .map((o) => ({ ...o, phases: [...o.phases], durations: { ...o.durations } }));
    },

    /** The running operation of a resource, if any (e.g. to attach a mapped event stream to it). */
    running(resource: string, kind?: string): OperationState | undefined {
      return [...ops.values()].find((o) => o.resource === resource && o.status === "running" && matchKind(o, kind));
    },
  };
}

/** A kind filter matches the kind itself or, ending in ".", every kind under it ("chaincode."). */
function matchKind(o: OperationState, kind: string | undefined): boolean {
  if (kind === undefined) return true;
  return kind.endsWith(".") ? o.kind.startsWith(kind) : o.kind === kind;
}

export type Operations = ReturnType<typeof createOperations>;
