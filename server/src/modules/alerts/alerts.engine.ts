import type { FastifyBaseLogger } from "fastify";
import type { EventBus, NotificationEventType } from "../../events/bus.js";
import type { SettingConfig } from "../settings/settings.schema.js";
import type { AlertsRepo, AlertStateRow } from "./alerts.repo.js";

/** What a rule says about one thing it watches (a certificate, a peer on a channel, a channel). */
export interface Condition {
  /** Stable within the rule: one state, and so one episode at a time, per key. */
  key: string;
  /** Human-readable name of what is watched. */
  subject: string;
  active: boolean;
  /** The event payload (pushed to browsers and providers: never secrets). */
  data: Record<string, unknown>;
}

/** What one evaluation cycle gives the rules. */
export interface RuleContext {
  now: Date;
  settings: SettingConfig;
  /** Memoises `fn` for the cycle, so rules share one scrape of the nodes. */
  once<T>(key: string, fn: () => Promise<T>): Promise<T>;
}

/** A small rule: the engine owns timing, dedup, cool-down and persistence. */
export interface AlertRule {
  id: string;
  /** Published once per episode when a condition has been active for `forMs`. */
  event: NotificationEventType;
  /** Published when a notified episode ends; rules without one end quietly. */
  resolveEvent?: NotificationEventType;
  forMs(settings: SettingConfig): number;
  /**
   * The rule reports every subject each cycle, so a key it no longer reports is gone (deleted) and
   * its state is dropped without an event. Otherwise a missing key means "unknown this cycle"
   * (e.g. a stopped node or a failed scrape) and its state is kept as it is.
   */
  exhaustive?: boolean;
  evaluate(ctx: RuleContext): Promise<Condition[]>;
}

type Status = "pending" | "firing" | "resolved";

/** A state whose key a rule has not reported for this long is dropped (its subject is most likely gone). */
const STALE_MS = 24 * 3_600_000;

/**
 * The alert rule engine. Per (rule, key) it keeps a persisted state: pending (active, waiting out
 * the rule's `for`), firing (one event sent per episode) or resolved (kept until the cool-down has
 * passed, so a condition that flaps back is not sent again; if it is still firing when the cool-down
 * ends, it is sent then). State lives in `alert_states`, so a
 * console restart neither re-fires an episode nor forgets one.
 */
export function createAlertEngine(deps: {
  repo: Pick<AlertsRepo["states"], "forRule" | "insert" | "update" | "delete">;
  bus: Pick<EventBus, "publish">;
  rules: AlertRule[];
  settings: { get(): Promise<{ config: SettingConfig }> };
  log: Pick<FastifyBaseLogger, "warn">;
  clock?: () => Date;
}) {
  const { repo, bus, rules, log } = deps;
  const clock = deps.clock ?? (() => new Date());

  async function runRule(rule: AlertRule, ctx: RuleContext): Promise<void> {
    const conditions = await rule.evaluate(ctx);
    const nowMs = ctx.now.getTime();
    const now = ctx.now.toISOString();
    const forMs = rule.forMs(ctx.settings);
    const cooldownMs = ctx.settings.alertCooldownMinutes * 60_000;
    const rows = new Map((await repo.forRule(rule.id)).map((r) => [r.alert_key, r]));
    const seen = new Set<string>();
    const coolingDown = (r: AlertStateRow | undefined): boolean =>
      Boolean(r?.last_notified_at && nowMs - Date.parse(r.last_notified_at) < cooldownMs);

    for (const c of conditions) {
      if (seen.has(c.key)) continue;
      seen.add(c.key);
      const row = rows.get(c.key);
      const status = row?.status as Status | undefined;
      const data = JSON.stringify(c.data);

      if (c.active) {
        if (status === "firing") {
          // Held back by the cool-down but still going once it has passed: the last word the user got
          // may have been its resolution, so it is sent now.
          if (row && row.notified === 0 && !coolingDown(row)) {
            await repo.update(row.id, { notified: 1, last_notified_at: now, data, updated_at: now });
            bus.publish(rule.event, c.data);
          }
          continue;
        }
        const since = status === "pending" && row?.pending_since ? row.pending_since : now;
        if (nowMs - Date.parse(since) < forMs) {
          if (!row) {
            await repo.insert({
              rule_id: rule.id,
              alert_key: c.key,
              subject: c.subject,
              status: "pending",
              pending_since: since,
              data,
              updated_at: now,
            });
          } else if (status !== "pending") {
            await repo.update(row.id, {
              status: "pending",
              pending_since: since,
              subject: c.subject,
              data,
              updated_at: now,
            });
          }
          continue;
        }
        // Fires. Within the cool-down of the last notification it fires silently: same episode to a reader.
        const notify = !coolingDown(row);
        const patch = {
          status: "firing",
          subject: c.subject,
          pending_since: since,
          firing_since: now,
          resolved_at: null,
          notified: notify ? 1 : 0,
          last_notified_at: notify ? now : (row?.last_notified_at ?? null),
          data,
          updated_at: now,
        };
        if (row) await repo.update(row.id, patch);
        else await repo.insert({ rule_id: rule.id, alert_key: c.key, ...patch });
        if (notify) bus.publish(rule.event, c.data);
        continue;
      }

      // Inactive.
      if (!row || status === "resolved") {
        if (row && !coolingDown(row)) await repo.delete(row.id);
        continue;
      }
      if (status === "pending") {
        if (coolingDown(row)) await repo.update(row.id, { status: "resolved", pending_since: null, updated_at: now });
        else await repo.delete(row.id);
        continue;
      }
      // Firing -> resolved; the way back is announced only when the episode itself was.
      await repo.update(row.id, { status: "resolved", resolved_at: now, pending_since: null, data, updated_at: now });
      if (row.notified === 1 && rule.resolveEvent) bus.publish(rule.resolveEvent, c.data);
    }

    for (const [key, row] of rows) {
      if (seen.has(key)) continue;
      // Gone for good (exhaustive rules), past its cool-down, or unknown for a day (a node deleted or
      // stopped long ago): dropped without an event.
      const stale = nowMs - Date.parse(row.updated_at) > STALE_MS;
      if (rule.exhaustive || stale || (row.status !== "firing" && !coolingDown(row))) await repo.delete(row.id);
      // A `for` counts an unbroken stretch: not knowing for a cycle starts it again.
      else if (row.status === "pending") {
        await repo.update(row.id, { status: "resolved", pending_since: null, updated_at: now });
      }
    }
  }

  return {
    /** One evaluation cycle of every rule; a failing rule is logged and the others still run. */
    async evaluate(): Promise<void> {
      const settings = (await deps.settings.get()).config;
      const memo = new Map<string, Promise<unknown>>();
      const ctx: RuleContext = {
        now: clock(),
        settings,
        once<T>(key: string, fn: () => Promise<T>): Promise<T> {
          if (!memo.has(key)) memo.set(key, fn());
          return memo.get(key) as Promise<T>;
        },
      };
      for (const rule of rules) {
        await runRule(rule, ctx).catch((err: unknown) => log.warn({ err, rule: rule.id }, "alert rule failed"));
      }
    },
  };
}

export type AlertEngine = ReturnType<typeof createAlertEngine>;
