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
import type { NodesRepo } from "./nodes.repo.js";

/** Log lines that say why a node stopped: Go panics, Fabric ERRO/FATA/PANI lines, Java exceptions. */
const REASON = /\bpanic: |\s(ERRO|FATA|PANI)\s|^Error: |Exception: /;

/**
 * Puts the reason in front of the supervisor's message: the last tail lines are often a stack
 * trace, while the line that explains the failure (e.g. "bind: address already in use") comes
 * before it.
 */
async function withReason(logFile: string, message: string): Promise<string> {
  const lines = await readLastLines(logFile, 300).catch(() => [] as string[]);
  const reasons = lines.filter((l) => REASON.test(l)).slice(-3);
  return reasons.length ? `${reasons.join("\n")}\n${message}` : message;
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
}) {
  const { repo, bus, log } = deps;
  const nodes = new Map<string, { id: number; name: string; logFile?: string }>();
  const downSince = new Map<number, number>();
  const queues = new Map<number, Promise<void>>();
  let closed = false;

  /** Persists in event order per node; a failure is logged and never stops supervision. */
  function enqueue(nodeId: number, fn: () => Promise<void>): void {
    const next = (queues.get(nodeId) ?? Promise.resolve()).then(fn).catch((err: unknown) => {
      if (!closed) log.warn({ err, nodeId }, "recording a node event failed");
    });
    queues.set(nodeId, next);
  }

  function downtime(node: { id: number; name: string }, reason: string): void {
    if (downSince.has(node.id)) return;
    downSince.set(node.id, Date.now());
    bus.publish("node.downtime", { node_id: node.id, node_name: node.name, downtime_mins: 0, reason });
  }

  function onEvent(e: SupervisorEvent): void {
    const node = nodes.get(e.id);
    if (!node || closed) return;
    const at = nowIso();
    const { type, id: _slug, ...data } = e;
    if (e.type === "status") {
      if (e.status === "ERROR") downtime(node, e.errorMessage ?? "ERROR");
      if (e.status === "RUNNING" && downSince.has(node.id)) {
        const mins = (Date.now() - (downSince.get(node.id) ?? Date.now())) / 60_000;
        downSince.delete(node.id);
        bus.publish("node.recovery", {
          node_id: node.id,
          node_name: node.name,
          downtime_mins: Math.round(mins * 100) / 100,
        });
      }
      if (e.status === "STOPPED") downSince.delete(node.id);
      bus.publish("node.status", {
        node_id: node.id,
        node_name: node.name,
        status: e.status,
        previous: e.previous,
        ...(e.errorMessage ? { error_message: e.errorMessage } : {}),
      });
    }
    if (e.type === "crash") {
      downtime(node, `${e.signal ? `signal ${e.signal}` : `exit code ${e.exitCode ?? "unknown"}`}`);
    }
    enqueue(node.id, async () => {
      if (e.type === "status") {
        const keepMessage = e.status === "ERROR" || e.status === "STARTING";
        let message = keepMessage ? (e.errorMessage ?? null) : null;
        if (e.status === "ERROR" && message && node.logFile) message = await withReason(node.logFile, message);
        await repo.update(node.id, { status: e.status, error_message: message, updated_at: at });
      }
      await repo.insertEvent({ node_id: node.id, type, data: JSON.stringify(data), created_at: at });
    });
  }

  const supervisor: Supervisor = createSupervisor({ ...deps.supervisor, stateDir: deps.stateDir, onEvent });

  return {
    supervisor,
    /** Maps a supervised process id (the node's slug) to its node, so events find their row. */
    track(slug: string, node: { id: number; name: string; logFile?: string }): void {
      nodes.set(slug, node);
    },
    untrack(slug: string): void {
      const n = nodes.get(slug);
      if (n) downSince.delete(n.id);
      nodes.delete(slug);
    },
    /** Records a status the console decided itself (e.g. no besu binary), with the same effects. */
    async setStatus(slug: string, status: "ERROR" | "STOPPED", errorMessage?: string): Promise<void> {
      const node = nodes.get(slug);
      if (!node) return;
      if (status === "ERROR") downtime(node, errorMessage ?? "ERROR");
      bus.publish("node.status", { node_id: node.id, node_name: node.name, status, error_message: errorMessage });
      await repo.update(node.id, { status, error_message: errorMessage ?? null, updated_at: nowIso() });
      await repo.insertEvent({
        node_id: node.id,
        type: "status",
        data: JSON.stringify({ status, ...(errorMessage ? { errorMessage } : {}) }),
        created_at: nowIso(),
      });
    },
    /** Waits for queued writes of a node (tests and delete). */
    async settle(nodeId: number): Promise<void> {
      await queues.get(nodeId);
    },
    /** Detaches from every node without stopping it (console shutdown). */
    close(): void {
      closed = true;
      supervisor.close();
    },
  };
}

export type NodeRuntime = ReturnType<typeof createNodeRuntime>;
