import type { Kysely } from "kysely";
import { idColumn, type Dialect } from "./helpers.js";

/**
 * Custom scrape jobs an operator added to the managed Prometheus (`POST /metrics/job/add`), rendered
 * into its configuration beside the nodes' jobs; and whether a deployed Prometheus was stopped on
 * purpose (`POST /metrics/stop`), so a console restart leaves it stopped.
 */
export function metricsJobs(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable("metrics_jobs"), dialect)
        .addColumn("job_name", "varchar(64)", (c) => c.notNull().unique())
        // JSON array of host:port strings.
        .addColumn("targets", "text", (c) => c.notNull())
        .addColumn("metrics_path", "varchar(255)", (c) => c.notNull())
        // A Prometheus duration (15s, 1m); null: the deployment's scrape interval.
        .addColumn("scrape_interval", "varchar(16)")
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema
        .alterTable("metrics_deployment")
        .addColumn("stopped", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable("metrics_deployment").dropColumn("stopped").execute();
      await db.schema.dropTable("metrics_jobs").execute();
    },
  };
}
