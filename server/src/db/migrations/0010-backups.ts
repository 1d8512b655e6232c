import type { Kysely } from "kysely";
import { idColumn, type Dialect } from "./helpers.js";

/**
 * Backups: restic repositories (targets; secrets stored as master-key envelopes), schedules (cron
 * expressions with a retention) and backup runs with their snapshot ids and restore-drill results.
 */
export function backups(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable("backup_targets"), dialect)
        .addColumn("name", "varchar(255)", (c) => c.notNull().unique())
        .addColumn("type", "varchar(16)", (c) => c.notNull())
        .addColumn("endpoint", "text")
        .addColumn("region", "varchar(64)")
        .addColumn("bucket_name", "varchar(255)")
        .addColumn("bucket_path", "text", (c) => c.notNull())
        .addColumn("access_key_id", "varchar(255)")
        .addColumn("secret_key_enc", "text")
        .addColumn("restic_password_enc", "text", (c) => c.notNull())
        .addColumn("force_path_style", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await idColumn(db.schema.createTable("backup_schedules"), dialect)
        .addColumn("name", "varchar(255)", (c) => c.notNull().unique())
        .addColumn("description", "text", (c) => c.notNull())
        .addColumn("cron_expression", "varchar(255)", (c) => c.notNull())
        .addColumn("target_id", "integer", (c) => c.notNull().references("backup_targets.id").onDelete("restrict"))
        .addColumn("retention_days", "integer", (c) => c.notNull())
        .addColumn("enabled", "integer", (c) => c.notNull())
        .addColumn("last_run_at", "varchar(32)")
        .addColumn("next_run_at", "varchar(32)")
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await idColumn(db.schema.createTable("backups"), dialect)
        .addColumn("target_id", "integer", (c) => c.notNull().references("backup_targets.id").onDelete("cascade"))
        .addColumn("schedule_id", "integer", (c) => c.references("backup_schedules.id").onDelete("set null"))
        .addColumn("status", "varchar(16)", (c) => c.notNull())
        .addColumn("metadata", "text", (c) => c.notNull())
        .addColumn("size_bytes", "bigint")
        .addColumn("duration_ms", "integer")
        .addColumn("snapshot_id", "varchar(80)")
        .addColumn("manifest_sha256", "varchar(64)")
        .addColumn("error_message", "text")
        .addColumn("verification_status", "varchar(16)")
        .addColumn("verification_error", "text")
        .addColumn("verified_at", "varchar(32)")
        .addColumn("created_by", "varchar(255)")
        .addColumn("started_at", "varchar(32)")
        .addColumn("completed_at", "varchar(32)")
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("backups_target_idx").on("backups").column("target_id").execute();
      await db.schema.createIndex("backups_schedule_idx").on("backups").column("schedule_id").execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("backups").execute();
      await db.schema.dropTable("backup_schedules").execute();
      await db.schema.dropTable("backup_targets").execute();
    },
  };
}
