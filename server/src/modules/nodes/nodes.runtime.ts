import type { FastifyBaseLogger } from "fastify";
import { nowIso } from "../../db/db.js";
import type { EventBus } from "../../events/bus.js";
import {
  createSupervisor,
  readLastLines,
  type Supervisor,
  type SupervisorEvent,
  type SupervisorOptions,
} from "../../runtime/index.js";
import { createRuntimeSupervisor, type DockerRuntime } from "../../runtime/docker/index.js";
import type { NodesRepo } from "./nodes.repo.js";

/** Log lines that say why a node stopped: Go panics, Fabric ERRO/FATA/PANI lines, Java exceptions. */
const REASON = /\bpanic: |\s(ERRO|FATA|PANI)\s|^Error: |Exception: /;

/**
 * Adds the log line that explains the failure to the first line of the supervisor's message, so it
 * reads "failed: exit code 1: … bind: address already in use": the last tail lines are often a stack
 * trace, while the decisive line comes before it.
 */
export function withReasonLine(message: string, logLines: readonly string[]): string {
  const reason = logLines
    .filter((l) => REASON.test(l))
    .at(-1)
    ?.trim();
  if (!reason) return message;
  const [head = "", ...rest] = message.split("\n");
  // "…; last log lines:" on the first line (the readiness timeout's) keeps the reason before it.
  const at = head.indexOf("; last log lines:");
  const line = at < 0 ? `${head}: ${reason}` : `${head.slice(0, at)}: ${reason}${head.slice(at)}`;
  return [line, ...rest].join("\n");
}

/** A node's ERROR says "failed: …" first, whatever part of the console decided it. */
export function asFailure(message: string): string {
  return /^failed\b/.test(message) ? message : `failed: ${message}`;
}

async function withReason(logFile: string, message: string): Promise<string> {
  return withReasonLine(message, await readLastLines(logFile, 300).catch(() => [] as string[]));
}

/** A node that stays down longer than this is reported (`node.downtime`). */
export const DOWNTIME_GRACE_MS = 60_000;

export type PlannedChange = "stop" | "restart";

interface DownEntry {
  since: number;
  reason: string;
  alerted: boolean;
  timer?: NodeJS.Timeout;
}

/**
 * The app's one supervisor, and what its events mean for the rest of the console: each status
 * change is persisted on the node row, every supervisor event becomes a node event, and a crash
 * or ERROR publishes `node.downtime` (and the way back to RUNNING `node.recovery`), which the
 * notifications module turns into user notifications. Every bus event also reaches websockets.
 */
export function createNodeRuntime(deps: {
  repo: Pick<NodesRepo, "update" | "insertEvent">;
  bus: Pick<EventBus, "publish">;
  log: Pick<FastifyBaseLogger, "warn">;
  stateDir: string;
  supervisor?: Partial<Omit<SupervisorOptions, "stateDir" | "onEvent">>;
  /**
   * How long a node must stay down before it is reported (a crash the supervisor restarts at once is
   * not); a function is read at each outage, so a settings change applies to the next one.
   */
  downtimeGraceMs?: number | (() => number);
  /** Settles when `downtimeGraceMs` gives the value in force (read from the settings at boot). */
  graceReady?: Promise<void>;
  /** Mode "docker": nodes whose spec has a container run on this engine. */
  docker?: DockerRuntime;
}) {
  const { repo, bus, log } = deps;
  const grace = deps.downtimeGraceMs ?? DOWNTIME_GRACE_MS;
  const graceMs = (): number => (typeof grace === "function" ? grace() : grace);
  const graceReady = deps.graceReady ?? Promise.resolve();
  const nodes = new Map<string, { id: number; name: string; logFile?: string }>();
  /** Nodes that are down: since when, why, and whether the alert went out. */
  const down = new Map<number, DownEntry>();
  /** Stops and restarts the console itself is making: not downtime. */
  const planned = new Map<number, PlannedChange>();
  const queues = new Map<number, Promise<void>>();
  let closed = false;

  /** Persists in event order per node; a failure is logged and never stops supervision. */
  function enqueue(nodeId: number, fn: () => Promise<void>): void {
    const next = (queues.get(nodeId) ?? Promise.resolve()).then(fn).catch((err: unknown) => {
      if (!closed) log.warn({ err, nodeId }, "recording a node event failed");
    });
    queues.set(nodeId, next);
  }

  const minutesSince = (t: number): number => Math.round(((Date.now() - t) / 60_000) * 1000) / 1000;

  /**
   * A node went down (crash or ERROR). Reported as `node.downtime` only if it is still down after the
   * grace period, with the real minutes it has been down and why; its return is then `node.recovery`.
   * The outage is kept on the node's row, so a console restart picks it up (`restoreDown`).
   */
  function downtime(
    node: { id: number; name: string },
    reason: string,
    restored?: { since: number; alerted: boolean },
  ): void {
    if (down.has(node.id) || closed) return;
    const since = restored?.since ?? Date.now();
    const d: DownEntry = { since, reason, alerted: restored?.alerted ?? false };
    if (!d.alerted) {
      // Armed once the grace in force is known (the settings' value is read at boot, alongside adoption).
      void graceReady.then(() => {
        if (down.get(node.id) !== d || closed) return;
        d.timer = setTimeout(
          () => {
            if (down.get(node.id) !== d || closed) return;
            d.alerted = true;
            bus.publish("node.downtime", {
              node_id: node.id,
              node_name: node.name,
              downtime_mins: minutesSince(d.since),
              reason: d.reason,
              down_since: new Date(d.since).toISOString(),
            });
            enqueue(node.id, () => repo.update(node.id, { down_alerted: 1 }));
          },
          Math.max(0, graceMs() - (Date.now() - since)),
        );
        d.timer.unref();
      });
    }
    down.set(node.id, d);
    if (!restored) {
      enqueue(node.id, () =>
        repo.update(node.id, { down_since: new Date(since).toISOString(), down_reason: reason, down_alerted: 0 }),
      );
    }
  }

  /** The node is up again (or deliberately stopped): a reported downtime ends with `node.recovery`. */
  function upAgain(node: { id: number; name: string }, recovered: boolean): void {
    const d = down.get(node.id);
    if (!d) return;
    clearTimeout(d.timer);
    down.delete(node.id);
    enqueue(node.id, () => repo.update(node.id, { down_since: null, down_reason: null, down_alerted: 0 }));
    if (d.alerted && recovered) {
      bus.publish("node.recovery", {
        node_id: node.id,
        node_name: node.name,
        downtime_mins: minutesSince(d.since),
        reason: d.reason,
      });
    }
  }

  function onEvent(e: SupervisorEvent): void {
    const node = nodes.get(e.id);
    if (!node || closed) return;
    const at = nowIso();
    const { type, id: _slug, ...data } = e;
    if (e.type === "status") {
      // A node failing to come back is a problem even during a restart the console made.
      if (e.status === "ERROR") {
        planned.delete(node.id);
        downtime(node, e.errorMessage ?? "ERROR");
      }
      if (e.status === "RUNNING") {
        planned.delete(node.id);
        upAgain(node, true);
      }
      if (e.status === "STOPPED") {
        // Stopped on purpose: not down, and nothing to recover from.
        if (planned.get(node.id) === "stop") planned.delete(node.id);
        upAgain(node, false);
      }
    }
    if (e.type === "crash" && !planned.has(node.id)) {
      downtime(
        node,
        `the process exited (${e.signal ? `signal ${e.signal}` : `exit code ${e.exitCode ?? "unknown"}`})`,
      );
    }
    enqueue(node.id, async () => {
      if (e.type !== "status") {
        await repo.insertEvent({ node_id: node.id, type, data: JSON.stringify(data), created_at: at });
        return;
      }
      const keepMessage = e.status === "ERROR" || e.status === "STARTING";
      let message = keepMessage ? (e.errorMessage ?? null) : null;
      if (message && node.logFile) message = await withReason(node.logFile, message);
      if (message && e.status === "ERROR") message = asFailure(message);
      await repo.update(node.id, { status: e.status, error_message: message, updated_at: at });
      await repo.insertEvent({ node_id: node.id, type, data: JSON.stringify(data), created_at: at });
      // Published once stored: a screen refetches the node on this event and must read the new state
      // (published before, a refetch could read the old row and go on showing it).
      bus.publish("node.status", {
        node_id: node.id,
        node_name: node.name,
        status: e.status,
        previous: e.previous,
        ...(message ? { error_message: message } : {}),
      });
    });
  }

  const options = { ...deps.supervisor, stateDir: deps.stateDir, onEvent };
  const supervisor: Supervisor = createRuntimeSupervisor({
    process: createSupervisor(options),
    docker: (engine) => {
      if (!deps.docker) throw new Error("this console has no Docker runtime");
      return deps.docker.supervisor(options, engine);
    },
  });

  return {
    supervisor,
    /** Maps a supervised process id (the node's slug) to its node, so events find their row. */
    track(slug: string, node: { id: number; name: string; logFile?: string }): void {
      nodes.set(slug, node);
    },
    untrack(slug: string): void {
      const n = nodes.get(slug);
      if (n) {
        upAgain(n, false);
        planned.delete(n.id);
      }
      nodes.delete(slug);
    },
    /**
     * The console is about to stop or restart the node itself (a stop, restart, config change or
     * certificate renewal): its exit is not downtime. Cleared when it is stopped or running again.
     */
    plan(slug: string, change: PlannedChange): void {
      const n = nodes.get(slug);
      if (n) planned.set(n.id, change);
    },
    /**
     * At boot: an outage recorded on the node's row goes on from where it was (same start, alert sent
     * or still due after what is left of the grace period), so a restart of the console neither
     * forgets it nor reports it twice.
     */
    restoreDown(
      node: { id: number; name: string },
      persisted: { since: string; reason: string | null; alerted: boolean },
    ): void {
      const since = Date.parse(persisted.since);
      if (Number.isNaN(since)) return;
      downtime(node, persisted.reason ?? "down", { since, alerted: persisted.alerted });
    },
    /** Records a status the console decided itself (e.g. no besu binary), with the same effects. */
    async setStatus(slug: string, status: "ERROR" | "STOPPED", errorMessage?: string): Promise<void> {
      const node = nodes.get(slug);
      if (!node) return;
      if (status === "ERROR") downtime(node, errorMessage ?? "ERROR");
      await repo.update(node.id, { status, error_message: errorMessage ?? null, updated_at: nowIso() });
      await repo.insertEvent({
        node_id: node.id,
        type: "status",
        data: JSON.stringify({ status, ...(errorMessage ? { errorMessage } : {}) }),
        created_at: nowIso(),
      });
      // After the row: a screen that refetches on the event reads the new status.
      bus.publish("node.status", { node_id: node.id, node_name: node.name, status, error_message: errorMessage });
    },
    /** Waits for queued writes of a node (tests and delete). */
    async settle(nodeId: number): Promise<void> {
      await queues.get(nodeId);
    },
    /** Detaches from every node without stopping it (console shutdown). */
    close(): void {
      closed = true;
      for (const d of down.values()) clearTimeout(d.timer);
      supervisor.close();
    },
  };
}

export type NodeRuntime = ReturnType<typeof createNodeRuntime>;
