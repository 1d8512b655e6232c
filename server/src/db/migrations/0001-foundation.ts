import type { Kysely } from "kysely";
import { idColumn, type Dialect } from "./helpers.js";

/** Users, sessions, API keys, audit log, settings and per-user notifications. */
export function foundation(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable("users"), dialect)
        .addColumn("username", "varchar(64)", (c) => c.notNull().unique())
        .addColumn("password_hash", "varchar(255)", (c) => c.notNull())
        .addColumn("role", "varchar(16)", (c) => c.notNull())
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .addColumn("last_login_at", "varchar(32)")
        .execute();

      await idColumn(db.schema.createTable("sessions"), dialect)
        .addColumn("token_hash", "varchar(64)", (c) => c.notNull().unique())
        .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("expires_at", "varchar(32)", (c) => c.notNull())
        .addColumn("last_seen_at", "varchar(32)", (c) => c.notNull())
        .addColumn("ip_address", "varchar(64)")
        .addColumn("user_agent", "varchar(512)")
        .execute();
      await db.schema.createIndex("sessions_user_idx").on("sessions").column("user_id").execute();

      await idColumn(db.schema.createTable("api_keys"), dialect)
        .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("name", "varchar(100)", (c) => c.notNull())
        .addColumn("description", "varchar(500)")
        .addColumn("key_prefix", "varchar(32)", (c) => c.notNull())
        .addColumn("key_hash", "varchar(64)", (c) => c.notNull().unique())
        .addColumn("role", "varchar(16)", (c) => c.notNull())
        .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1))
        .addColumn("expires_at", "varchar(32)")
        .addColumn("last_used_at", "varchar(32)")
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("api_keys_user_idx").on("api_keys").column("user_id").execute();

      await idColumn(db.schema.createTable("api_key_logs"), dialect)
        .addColumn("api_key_id", "integer", (c) => c.notNull().references("api_keys.id").onDelete("cascade"))
        .addColumn("method", "varchar(10)", (c) => c.notNull())
        .addColumn("path", "varchar(2048)", (c) => c.notNull())
        .addColumn("status_code", "integer", (c) => c.notNull())
        .addColumn("ip_address", "varchar(64)")
        .addColumn("user_agent", "varchar(512)")
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("api_key_logs_key_idx").on("api_key_logs").columns(["api_key_id", "id"]).execute();

      await idColumn(db.schema.createTable("audit_logs"), dialect)
        .addColumn("timestamp", "varchar(32)", (c) => c.notNull())
        .addColumn("event_type", "varchar(64)", (c) => c.notNull())
        .addColumn("event_source", "varchar(32)", (c) => c.notNull())
        .addColumn("event_outcome", "varchar(16)", (c) => c.notNull())
        .addColumn("severity", "varchar(16)", (c) => c.notNull())
        .addColumn("user_id", "integer")
        .addColumn("username", "varchar(64)")
        .addColumn("source_ip", "varchar(64)")
        .addColumn("request_id", "varchar(64)")
        .addColumn("session_id", "varchar(64)")
        .addColumn("affected_resource", "varchar(512)")
        .addColumn("details", "text")
        .execute();
      await db.schema.createIndex("audit_logs_ts_idx").on("audit_logs").column("timestamp").execute();
      await db.schema.createIndex("audit_logs_type_idx").on("audit_logs").column("event_type").execute();

      await idColumn(db.schema.createTable("settings"), dialect)
        .addColumn("config", "text", (c) => c.notNull())
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();

      await idColumn(db.schema.createTable("user_notifications"), dialect)
        .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("event_type", "varchar(64)", (c) => c.notNull())
        .addColumn("event_data", "text", (c) => c.notNull())
        .addColumn("is_read", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("user_notifications_user_idx")
        .on("user_notifications")
        .columns(["user_id", "is_read", "id"])
        .execute();
    },
  };
}
