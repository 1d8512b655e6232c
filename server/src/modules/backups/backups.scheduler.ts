import type { FastifyBaseLogger } from "fastify";
import { nowIso } from "../../db/db.js";
import { errorMessage } from "../../http/errors.js";
import type { BackupsRepo, ScheduleRow } from "./backups.repo.js";
import type { BackupsService } from "./backups.service.js";
import { nextRun } from "./cron.js";

/** setTimeout's ceiling (~24.8 days); a later run re-arms when this fires. */
const MAX_DELAY = 2 ** 31 - 1;

/**
 * Runs enabled schedules at their cron times. Each schedule keeps `next_run_at` in the database, so
 * a run missed while the console was down is seen at start and run once (not once per missed
 * time). A schedule whose previous run is still pending or running skips that time: runs of one
 * schedule never overlap.
 */
export function createBackupScheduler(deps: {
  repo: BackupsRepo;
  backups: Pick<BackupsService, "createBackup">;
  log: FastifyBaseLogger;
}) {
  const { repo, log } = deps;
  const timers = new Map<number, NodeJS.Timeout>();
  let stopped = false;

  function disarm(id: number): void {
    const t = timers.get(id);
    if (t) clearTimeout(t);
    timers.delete(id);
  }

  function arm(s: ScheduleRow): void {
    disarm(s.id);
    if (stopped || s.enabled !== 1 || !s.next_run_at) return;
    const delay = Math.max(0, Date.parse(s.next_run_at) - Date.now());
    const timer = setTimeout(() => void fire(s.id, false), Math.min(delay, MAX_DELAY));
    timer.unref();
    timers.set(s.id, timer);
  }

  /** Runs a schedule now if it is due (or missed), then arms its next time. */
  async function fire(id: number, catchUp: boolean): Promise<void> {
    timers.delete(id);
    if (stopped) return;
    try {
      const s = await repo.schedules.byId(id);
      if (!s || s.enabled !== 1) return;
      const due = s.next_run_at ? Date.parse(s.next_run_at) <= Date.now() + 250 : false;
      if (due) {
        const active = await repo.backups.activeOfSchedule(s.id);
        if (active) {
          log.warn(
            { scheduleId: s.id, backupId: active.id },
            "schedule skipped a run: its previous run is still going",
          );
        } else {
          await deps.backups.createBackup(
            {
              targetId: s.target_id,
              scheduleId: s.id,
              metadata: { schedule: s.name, ...(catchUp ? { missed: true } : {}) },
            },
            null,
          );
        }
        // The next time counts from now: missed times collapse into the one run above.
        await repo.schedules.update(s.id, { last_run_at: nowIso(), next_run_at: nextRun(s.cron_expression) });
      } else if (!s.next_run_at) {
        await repo.schedules.update(s.id, { next_run_at: nextRun(s.cron_expression) });
      }
      const fresh = await repo.schedules.byId(id);
      if (fresh) arm(fresh);
    } catch (err) {
      log.error({ scheduleId: id, err: errorMessage(err) }, "backup schedule run failed");
      // Try again at the next time rather than never.
      const s = await repo.schedules.byId(id).catch(() => undefined);
      if (s) {
        await repo.schedules.update(id, { next_run_at: nextRun(s.cron_expression) }).catch(() => undefined);
        arm({ ...s, next_run_at: nextRun(s.cron_expression) });
      }
    }
  }

  return {
    /** Arms every enabled schedule; runs those whose time passed while the console was down. */
    async start(): Promise<void> {
      for (const s of await repo.schedules.list()) {
        if (s.enabled !== 1) continue;
        if (s.next_run_at && Date.parse(s.next_run_at) <= Date.now()) await fire(s.id, true);
        else if (!s.next_run_at) await fire(s.id, false);
        else arm(s);
      }
    },
    /** After a schedule is created, changed, enabled, disabled or deleted. */
    async refresh(id: number): Promise<void> {
      const s = await repo.schedules.byId(id);
      if (!s) return disarm(id);
      arm(s);
    },
    stop(): void {
      stopped = true;
      for (const id of [...timers.keys()]) disarm(id);
    },
  };
}

export type BackupScheduler = ReturnType<typeof createBackupScheduler>;
