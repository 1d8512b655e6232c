import type { FastifyInstance } from "fastify";
import type { PromSample } from "../../runtime/prom-text.js";
import type { AppContext } from "../context.js";
import { durationMs } from "../nodes/nodes.health.js";
import type { SettingsService } from "../settings/settings.service.js";
import { createAlertEngine, type AlertEngine, type AlertRule } from "./alerts.engine.js";
import { createAlertsRepo } from "./alerts.repo.js";
import { registerAlertsRoutes } from "./alerts.routes.js";
import { certificateExpiryRule } from "./rules/certificate-expiry.rule.js";
import { peerLagRule } from "./rules/peer-lag.rule.js";
import { raftConsenterRule, raftLeaderRule } from "./rules/raft.rules.js";

/** Never evaluate more often than this, whatever the settings say ("0s" would spin). */
const MIN_INTERVAL_MS = 1000;

export interface AlertsModule {
  engine: AlertEngine;
  /** Stops the loop and waits for a cycle in flight, so nothing writes after the database closes. */
  close(): Promise<void>;
}

/** The console's alert rules, in evaluation order. */
export function alertRules(
  repo: ReturnType<typeof createAlertsRepo>,
  scrape?: (url: string, timeoutMs: number) => Promise<PromSample[]>,
): AlertRule[] {
  return [
    certificateExpiryRule(repo),
    peerLagRule(repo, scrape),
    raftLeaderRule(repo, scrape),
    raftConsenterRule(repo, scrape),
  ];
}

/**
 * Wires the alert engine: its rules, one evaluation loop every `alertEvaluationInterval` (followed
 * on `settings.updated`, so threshold and interval changes apply without a restart), and the
 * read-only list of alerts. Node downtime stays with the node runtime (ARCHITECTURE.md).
 */
export function registerAlertsModule(
  api: FastifyInstance,
  ctx: Pick<AppContext, "db" | "bus" | "log">,
  deps: { settings: Pick<SettingsService, "get"> },
): AlertsModule {
  const repo = createAlertsRepo(ctx.db);
  const engine = createAlertEngine({
    repo: repo.states,
    bus: ctx.bus,
    rules: alertRules(repo),
    settings: deps.settings,
    log: ctx.log,
  });
  registerAlertsRoutes(api, repo);

  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;
  let stopped = false;

  async function schedule(): Promise<void> {
    if (stopped) return;
    const interval = durationMs((await deps.settings.get()).config.alertEvaluationInterval, 30_000);
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(tick, Math.max(MIN_INTERVAL_MS, interval));
    timer.unref();
  }
  function tick(): void {
    if (stopped || inFlight) return;
    inFlight = engine
      .evaluate()
      .catch((err: unknown) => ctx.log.warn({ err }, "alert evaluation failed"))
      .finally(() => {
        inFlight = undefined;
        void schedule().catch(() => undefined);
      });
  }
  const unsubscribe = ctx.bus.subscribe((e) => {
    if (e.type === "settings.updated") void schedule().catch(() => undefined);
  });
  void schedule().catch(() => undefined);

  return {
    engine,
    async close(): Promise<void> {
      stopped = true;
      unsubscribe();
      clearTimeout(timer);
      await inFlight;
    },
  };
}
