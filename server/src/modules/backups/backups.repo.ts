import type { Insertable, Selectable, Updateable } from "kysely";
import type { DB } from "../../db/db.js";
import type { BackupSchedulesTable, BackupTargetsTable, BackupsTable } from "../../db/types.js";

export type TargetRow = Selectable<BackupTargetsTable>;
export type ScheduleRow = Selectable<BackupSchedulesTable>;
export type BackupRow = Selectable<BackupsTable> & { target_name: string };

/** SQL for backup targets, schedules and backups. */
export function createBackupsRepo(db: DB) {
  const backups = () =>
    db
      .selectFrom("backups as b")
      .innerJoin("backup_targets as t", "t.id", "b.target_id")
      .selectAll("b")
      .select("t.name as target_name");
  return {
    targets: {
      list: (): Promise<TargetRow[]> => db.selectFrom("backup_targets").selectAll().orderBy("id").execute(),
      byId: (id: number): Promise<TargetRow | undefined> =>
        db.selectFrom("backup_targets").selectAll().where("id", "=", id).executeTakeFirst(),
      async insert(row: Insertable<BackupTargetsTable>): Promise<number> {
        return (await db.insertInto("backup_targets").values(row).returning("id").executeTakeFirstOrThrow()).id;
      },
      async update(id: number, patch: Updateable<BackupTargetsTable>): Promise<void> {
        await db.updateTable("backup_targets").set(patch).where("id", "=", id).execute();
      },
      async delete(id: number): Promise<void> {
        await db.deleteFrom("backup_targets").where("id", "=", id).execute();
      },
    },
    schedules: {
      list: (): Promise<ScheduleRow[]> => db.selectFrom("backup_schedules").selectAll().orderBy("id").execute(),
      byId: (id: number): Promise<ScheduleRow | undefined> =>
        db.selectFrom("backup_schedules").selectAll().where("id", "=", id).executeTakeFirst(),
      byTarget: (targetId: number): Promise<ScheduleRow[]> =>
        db.selectFrom("backup_schedules").selectAll().where("target_id", "=", targetId).orderBy("id").execute(),
      async insert(row: Insertable<BackupSchedulesTable>): Promise<number> {
        return (await db.insertInto("backup_schedules").values(row).returning("id").executeTakeFirstOrThrow()).id;
      },
      async update(id: number, patch: Updateable<BackupSchedulesTable>): Promise<void> {
        await db.updateTable("backup_schedules").set(patch).where("id", "=", id).execute();
      },
      async delete(id: number): Promise<void> {
        await db.deleteFrom("backup_schedules").where("id", "=", id).execute();
      },
    },
    backups: {
      list: (limit: number): Promise<BackupRow[]> => backups().orderBy("b.id", "desc").limit(limit).execute(),
      byId: (id: number): Promise<BackupRow | undefined> => backups().where("b.id", "=", id).executeTakeFirst(),
      byTarget: (targetId: number): Promise<BackupRow[]> =>
        backups().where("b.target_id", "=", targetId).orderBy("b.id").execute(),
      /** A pending or running backup of a schedule (runs of one schedule never overlap). */
      activeOfSchedule: (scheduleId: number): Promise<BackupRow | undefined> =>
        backups()
          .where("b.schedule_id", "=", scheduleId)
          .where("b.status", "in", ["pending", "running"])
          .executeTakeFirst(),
      async insert(row: Insertable<BackupsTable>): Promise<number> {
        return (await db.insertInto("backups").values(row).returning("id").executeTakeFirstOrThrow()).id;
      },
      async update(id: number, patch: Updateable<BackupsTable>): Promise<void> {
        await db.updateTable("backups").set(patch).where("id", "=", id).execute();
      },
      async delete(id: number): Promise<void> {
        await db.deleteFrom("backups").where("id", "=", id).execute();
      },
      async deleteMany(ids: number[]): Promise<void> {
        if (ids.length) await db.deleteFrom("backups").where("id", "in", ids).execute();
      },
      /**
       * Runs a stopped console left unfinished: they failed, and say why. Returns the runs this call
       * marked (a run is marked once, so each is reported once).
       */
      async failInterrupted(at: string): Promise<Array<{ id: number; target_name: string; reason: string }>> {
        const reason = "interrupted: the console stopped while this backup ran; start a new one";
        const left = await backups().where("b.status", "in", ["pending", "running"]).execute();
        const marked: Array<{ id: number; target_name: string; reason: string }> = [];
        for (const b of left) {
          const r = await db
            .updateTable("backups")
            .set({ status: "failed", error_message: reason, completed_at: at })
            .where("id", "=", b.id)
            .where("status", "in", ["pending", "running"])
            .executeTakeFirst();
          if (Number(r.numUpdatedRows) > 0) marked.push({ id: b.id, target_name: b.target_name, reason });
        }
        await db
          .updateTable("backups")
          .set({
            verification_status: "failed",
            verification_error: "interrupted: the console stopped during the drill",
          })
          .where("verification_status", "=", "running")
          .execute();
        return marked;
      },
    },
  };
}

export type BackupsRepo = ReturnType<typeof createBackupsRepo>;
