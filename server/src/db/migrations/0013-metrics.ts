import type { Kysely } from "kysely";
import type { Dialect } from "./helpers.js";

/**
 * The managed Prometheus: one row (id 1) with what was deployed (mode, port, scrape interval, version
 * label) and whether it should be running, so a console restart adopts or restarts it.
 */
export function metrics(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("metrics_deployment")
        .addColumn("id", "integer", (c) => c.primaryKey())
        .addColumn("deployment_mode", "varchar(16)", (c) => c.notNull())
        .addColumn("port", "integer", (c) => c.notNull())
        .addColumn("scrape_interval", "integer", (c) => c.notNull())
        .addColumn("version", "varchar(64)", (c) => c.notNull())
        .addColumn("deployed", "integer", (c) => c.notNull())
        .addColumn("started_at", "varchar(32)")
        .addColumn("error", "text")
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("metrics_deployment").execute();
    },
  };
}
