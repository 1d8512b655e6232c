import type { z } from "zod";
import { nowIso } from "../../db/db.js";
import type { EventBus } from "../../events/bus.js";
import { NotFoundError } from "../../http/errors.js";
import { getHealthz } from "../../runtime/index.js";
import type { SettingsService } from "../settings/settings.service.js";
import { deploymentOf } from "./nodes.mapping.js";
import type { HealthCheckRow, NodeRow, NodesRepo } from "./nodes.repo.js";
import type { healthHistory, healthStatus } from "./nodes.schema.js";

type HealthStatus = z.infer<typeof healthStatus>;
/** One probe's outcome as stored (a health check row without its id). */
type CheckResult = Omit<HealthCheckRow, "id">;
type HealthHistory = z.infer<typeof healthHistory>;

/** "30s" → 30000; the settings schema guarantees the form. */
export function durationMs(value: string, fallback: number): number {
  const m = /^(\d+)(ms|s|m|h)$/.exec(value);
  if (!m) return fallback;
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] as "ms" | "s" | "m" | "h"];
  return Number(m[1]) * unit;
}

function parseJson(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Node health: a poller GETs each RUNNING node's health endpoint (Fabric operations /healthz,
 * Besu /liveness) every `healthCheckInterval` and stores the result, keeping
 * `healthCheckRetention` rows per node. The interval follows `settings.updated`. `checkNow` and
 * `checkAll` run the same probe on demand (the monitoring routes) and store it like a poll.
 */
export function createNodeHealth(deps: {
  repo: Pick<NodesRepo, "byId" | "withStatus" | "insertHealth" | "lastHealth" | "healthBetween">;
  settings: Pick<SettingsService, "get">;
  bus: Pick<EventBus, "subscribe">;
}) {
  const { repo } = deps;
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let stopped = false;
  let unsubscribe: (() => void) | undefined;

  /** Probes the node's health endpoint once and stores the result; undefined when it has no endpoint. */
  async function check(row: NodeRow, timeoutMs: number, keep: number): Promise<CheckResult | undefined> {
    const d = deploymentOf(row) as { healthUrl?: string };
    if (!d.healthUrl) return undefined;
    const t0 = Date.now();
    const r = await getHealthz(d.healthUrl, timeoutMs);
    const ms = Date.now() - t0;
    // Besu's /liveness answers {"status":"UP"}; any 200 there is healthy.
    const healthy = r.ok || (row.platform === "BESU" && r.status === 200);
    const status = healthy ? "healthy" : r.status === 0 ? "unreachable" : "unhealthy";
    const metadata = { httpStatus: r.status, url: d.healthUrl, ...(r.body !== undefined ? { body: r.body } : {}) };
    const errorMessage = healthy ? null : (r.error ?? `HTTP ${r.status}`);
    const result: CheckResult = {
      node_id: row.id,
      status,
      response_time_ms: ms,
      error_message: errorMessage,
      metadata: JSON.stringify(metadata),
      checked_at: nowIso(),
    };
    await repo.insertHealth(result, keep);
    // This probe's own result: a check of the poller's stored meanwhile must not stand in for it.
    return result;
  }

  /** The timeout and retention of one round of checks, from the settings. */
  async function limits(): Promise<{ timeoutMs: number; keep: number }> {
    const s = (await deps.settings.get()).config;
    return { timeoutMs: durationMs(s.healthCheckTimeout, 5000), keep: s.healthCheckRetention };
  }

  /** Probes a node now and answers the result as the API shows it. */
  async function probe(row: NodeRow, l: { timeoutMs: number; keep: number }): Promise<HealthStatus> {
    const h = await check(row, l.timeoutMs, l.keep);
    return h ? toStatus(row, h) : withoutEndpoint(row);
  }

  async function pollOnce(): Promise<void> {
    if (running) return;
    running = true;
    try {
      const l = await limits();
      for (const row of await repo.withStatus(["RUNNING"])) {
        if (stopped) break;
        await check(row, l.timeoutMs, l.keep).catch(() => undefined);
      }
    } finally {
      running = false;
    }
  }

  async function schedule(): Promise<void> {
    if (stopped) return;
    const s = (await deps.settings.get()).config;
    if (timer) clearInterval(timer);
    timer = setInterval(() => void pollOnce().catch(() => undefined), durationMs(s.healthCheckInterval, 30_000));
    timer.unref();
  }

  function toStatus(row: NodeRow, h: CheckResult): HealthStatus {
    return {
      nodeId: row.id,
      nodeName: row.name,
      platform: row.platform,
      endpoint: (deploymentOf(row) as { healthUrl?: string }).healthUrl ?? "",
      status: h.status as HealthStatus["status"],
      responseTimeMs: h.response_time_ms,
      ...(h.error_message ? { errorMessage: h.error_message } : {}),
      lastChecked: h.checked_at,
      metadata: parseJson(h.metadata),
    };
  }

  /** A node that has no health endpoint yet (its deployment never got one): nothing to probe. */
  function withoutEndpoint(row: NodeRow): HealthStatus {
    return {
      nodeId: row.id,
      nodeName: row.name,
      platform: row.platform,
      endpoint: "",
      status: "unreachable",
      responseTimeMs: 0,
      errorMessage: "the node has no health endpoint yet",
      lastChecked: nowIso(),
      metadata: {},
    };
  }

  async function mustGet(id: number): Promise<NodeRow> {
    const row = await repo.byId(id);
    if (!row) throw new NotFoundError(`node ${id} not found`);
    return row;
  }

  return {
    start(): void {
      stopped = false;
      void schedule().catch(() => undefined);
      unsubscribe = deps.bus.subscribe((e) => {
        if (e.type === "settings.updated") void schedule().catch(() => undefined);
      });
    },
    stop(): void {
      stopped = true;
      if (timer) clearInterval(timer);
      unsubscribe?.();
    },
    pollOnce,
    /** The latest stored check; checks now when there is none yet. */
    async status(id: number): Promise<HealthStatus> {
      const row = await mustGet(id);
      const h = await repo.lastHealth(id);
      return h ? toStatus(row, h) : probe(row, await limits());
    },
    /** The latest stored check of every monitored (RUNNING) node; those never checked are checked now. */
    async statuses(): Promise<HealthStatus[]> {
      const l = await limits();
      return Promise.all(
        (await repo.withStatus(["RUNNING"])).map(async (row) => {
          const h = await repo.lastHealth(row.id);
          return h ? toStatus(row, h) : probe(row, l);
        }),
      );
    },
    /**
     * Probes one node now, whatever its status (a stopped node answers nothing: unreachable), and
     * stores the result like a poll.
     */
    async checkNow(id: number): Promise<HealthStatus> {
      return probe(await mustGet(id), await limits());
    },
    /** Probes every monitored (RUNNING) node now, all at once, and stores the results. */
    async checkAll(): Promise<HealthStatus[]> {
      const l = await limits();
      return Promise.all((await repo.withStatus(["RUNNING"])).map((row) => probe(row, l)));
    },
    async history(
      id: number,
      q: { start_time?: string | undefined; end_time?: string | undefined; hours?: number | undefined },
    ): Promise<HealthHistory> {
      const row = await mustGet(id);
      const end = q.end_time ? new Date(q.end_time) : new Date();
      const start = q.start_time ? new Date(q.start_time) : new Date(end.getTime() - (q.hours ?? 24) * 3_600_000);
      const rows = await repo.healthBetween(id, start.toISOString(), end.toISOString());
      const healthy = rows.filter((r) => r.status === "healthy").length;
      const s = (await deps.settings.get()).config;
      return {
        nodeId: row.id,
        nodeName: row.name,
        platform: row.platform,
        interval: s.healthCheckInterval,
        timeRange: { startTime: start.toISOString(), endTime: end.toISOString() },
        healthchecks: rows.map((r) => ({
          checkedAt: r.checked_at,
          status: r.status as HealthStatus["status"],
          responseTimeMs: r.response_time_ms,
          ...(r.error_message ? { errorMessage: r.error_message } : {}),
          metadata: parseJson(r.metadata),
        })),
        summary: {
          totalChecks: rows.length,
          healthyCount: healthy,
          unhealthyCount: rows.length - healthy,
          uptime: rows.length ? Math.round((healthy / rows.length) * 10_000) / 100 : 0,
          avgResponseMs: rows.length ? rows.reduce((a, r) => a + r.response_time_ms, 0) / rows.length : 0,
        },
      };
    },
  };
}

export type NodeHealth = ReturnType<typeof createNodeHealth>;
