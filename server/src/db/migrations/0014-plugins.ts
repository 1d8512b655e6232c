import type { Kysely } from "kysely";
import { idColumn, type Dialect } from "./helpers.js";

/**
 * Plugins: the YAML as the operator wrote it (and its parsed form), and the deployment: status,
 * the parameter values as given (ids of console resources, never what they resolve to), times and
 * the last error.
 */
export function plugins(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable("plugins"), dialect)
        .addColumn("name", "varchar(64)", (c) => c.notNull().unique())
        .addColumn("source", "text", (c) => c.notNull())
        .addColumn("definition", "text", (c) => c.notNull())
        .addColumn("status", "varchar(16)", (c) => c.notNull())
        .addColumn("parameters", "text")
        .addColumn("error", "text")
        .addColumn("started_at", "varchar(32)")
        .addColumn("stopped_at", "varchar(32)")
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("plugins").execute();
    },
  };
}
