import type { Kysely } from "kysely";
import { idColumn, type Dialect } from "./helpers.js";

/**
 * Nodes (Fabric peers and orderers, Besu nodes), their event history and stored health checks.
 * `config` keeps the request as sent; `deployment` what creation resolved (addresses, ports, key
 * ids, certificates, paths, binary, version). Key columns let the keys module refuse deletes.
 */
export function nodes(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable("nodes"), dialect)
        .addColumn("name", "varchar(100)", (c) => c.notNull().unique())
        .addColumn("slug", "varchar(100)", (c) => c.notNull().unique())
        .addColumn("platform", "varchar(16)", (c) => c.notNull())
        .addColumn("node_type", "varchar(32)", (c) => c.notNull())
        .addColumn("status", "varchar(16)", (c) => c.notNull())
        .addColumn("error_message", "text")
        .addColumn("endpoint", "varchar(300)")
        .addColumn("organization_id", "integer")
        .addColumn("network_id", "integer")
        .addColumn("key_id", "integer")
        .addColumn("tls_key_id", "integer")
        .addColumn("config", "text", (c) => c.notNull())
        .addColumn("deployment", "text", (c) => c.notNull().defaultTo("{}"))
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("nodes_platform_idx").on("nodes").columns(["platform", "status"]).execute();

      await idColumn(db.schema.createTable("node_events"), dialect)
        .addColumn("node_id", "integer", (c) => c.notNull().references("nodes.id").onDelete("cascade"))
        .addColumn("type", "varchar(32)", (c) => c.notNull())
        .addColumn("data", "text", (c) => c.notNull())
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("node_events_node_idx").on("node_events").columns(["node_id", "id"]).execute();

      await idColumn(db.schema.createTable("node_health_checks"), dialect)
        .addColumn("node_id", "integer", (c) => c.notNull().references("nodes.id").onDelete("cascade"))
        .addColumn("status", "varchar(16)", (c) => c.notNull())
        .addColumn("response_time_ms", "integer", (c) => c.notNull())
        .addColumn("error_message", "text")
        .addColumn("metadata", "text", (c) => c.notNull().defaultTo("{}"))
        .addColumn("checked_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("node_health_checks_node_idx")
        .on("node_health_checks")
        .columns(["node_id", "checked_at"])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const t of ["node_health_checks", "node_events", "nodes"]) await db.schema.dropTable(t).execute();
    },
  };
}
