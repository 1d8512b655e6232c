import type { Kysely } from "kysely";
import { idColumn, type Dialect } from "./helpers.js";

/**
 * Notification providers (email over SMTP, signed webhooks): the non-secret settings as JSON, the one
 * secret (SMTP password or webhook HMAC key) as a master-key envelope, which events go to each one,
 * and the result of its last "Send test".
 */
export function notificationProviders(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable("notification_providers"), dialect)
        .addColumn("name", "varchar(255)", (c) => c.notNull().unique())
        .addColumn("type", "varchar(16)", (c) => c.notNull())
        .addColumn("config", "text", (c) => c.notNull())
        .addColumn("secret_enc", "text")
        .addColumn("is_default", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("notify_node_downtime", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("notify_backup_success", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("notify_backup_failure", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("notify_s3_conn_issue", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("notify_cert_expiry", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("notify_peer_lag", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("notify_raft_health", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("last_test_at", "varchar(32)")
        .addColumn("last_test_status", "varchar(16)")
        .addColumn("last_test_message", "text")
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("notification_providers").execute();
    },
  };
}
