import type { Kysely } from "kysely";
import { idColumn, type Dialect } from "./helpers.js";

/**
 * Alert state of the rule engine, one row per (rule, key) that is pending, firing or recently
 * resolved: a console restart neither re-fires an episode nor forgets one going on.
 */
export function alerts(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable("alert_states"), dialect)
        .addColumn("rule_id", "varchar(64)", (c) => c.notNull())
        .addColumn("alert_key", "varchar(255)", (c) => c.notNull())
        .addColumn("subject", "text", (c) => c.notNull())
        .addColumn("status", "varchar(16)", (c) => c.notNull())
        .addColumn("pending_since", "varchar(32)")
        .addColumn("firing_since", "varchar(32)")
        .addColumn("resolved_at", "varchar(32)")
        .addColumn("last_notified_at", "varchar(32)")
        .addColumn("notified", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("data", "text", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("alert_states_rule_key_idx")
        .on("alert_states")
        .columns(["rule_id", "alert_key"])
        .unique()
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("alert_states").execute();
    },
  };
}
