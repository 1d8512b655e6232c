import { nowIso } from "../../db/db.js";
import { isUniqueViolation } from "../../db/unique-violation.js";
import { ConflictError } from "../../http/errors.js";
import type { BackupsCore } from "./backups.core.js";
import { toSchedule } from "./backups.mappers.js";
import type { CreateScheduleBody, ScheduleResponse } from "./backups.schema.js";
import { checkCron, nextRun, nextRuns, parseCron } from "./cron.js";

/**
 * Backup schedules: cron times, a target (made by an admin), a retention. Operators manage them:
 * they choose when the console backs up, never where to.
 */
export function createBackupSchedules(core: BackupsCore) {
  const { repo } = core;
  const duplicate = (name: string): ConflictError =>
    new ConflictError(`name: a backup schedule named '${name}' already exists`);
  return {
    async listSchedules(): Promise<ScheduleResponse[]> {
      return (await repo.schedules.list()).map(toSchedule);
    },
    async getSchedule(id: number): Promise<ScheduleResponse> {
      return toSchedule(await core.mustSchedule(id));
    },
    async createSchedule(body: CreateScheduleBody): Promise<ScheduleResponse> {
      parseCron(body.cronExpression);
      await core.mustTarget(body.targetId, "targetId");
      const enabled = body.enabled ?? true;
      const at = nowIso();
      try {
        const id = await repo.schedules.insert({
          name: body.name,
          description: body.description ?? "",
          cron_expression: body.cronExpression,
          target_id: body.targetId,
          retention_days: body.retentionDays,
          enabled: enabled ? 1 : 0,
          last_run_at: null,
          next_run_at: enabled ? nextRun(body.cronExpression) : null,
          created_at: at,
          updated_at: at,
        });
        return toSchedule(await core.mustSchedule(id));
      } catch (err) {
        if (isUniqueViolation(err)) throw duplicate(body.name);
        throw err;
      }
    },
    async updateSchedule(id: number, body: CreateScheduleBody): Promise<ScheduleResponse> {
      const current = await core.mustSchedule(id);
      parseCron(body.cronExpression);
      await core.mustTarget(body.targetId, "targetId");
      const enabled = body.enabled ?? current.enabled === 1;
      try {
        await repo.schedules.update(id, {
          name: body.name,
          description: body.description ?? current.description,
          cron_expression: body.cronExpression,
          target_id: body.targetId,
          retention_days: body.retentionDays,
          enabled: enabled ? 1 : 0,
          next_run_at: enabled ? nextRun(body.cronExpression) : null,
          updated_at: nowIso(),
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw duplicate(body.name);
        throw err;
      }
      return toSchedule(await core.mustSchedule(id));
    },
    async setScheduleEnabled(id: number, enabled: boolean): Promise<ScheduleResponse> {
      const s = await core.mustSchedule(id);
      await repo.schedules.update(id, {
        enabled: enabled ? 1 : 0,
        next_run_at: enabled ? nextRun(s.cron_expression) : null,
        updated_at: nowIso(),
      });
      return toSchedule(await core.mustSchedule(id));
    },
    async deleteSchedule(id: number): Promise<void> {
      await core.mustSchedule(id);
      await repo.schedules.delete(id);
    },
    previewCron(expression: string, count = 5) {
      const r = checkCron(expression);
      if (!r.ok) return { valid: false, nextExecutions: [], error: r.error };
      return { valid: true, nextExecutions: nextRuns(r.cron, count) };
    },
  };
}
