import type { Kysely } from "kysely";
import type { Dialect } from "./helpers.js";

/**
 * A node's current downtime (since when, why, whether the alert went out) is kept on its row, so a
 * console restart while a node is down neither forgets the outage nor reports it as new.
 */
export function nodeDowntime(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable("nodes").addColumn("down_since", "text").execute();
      await db.schema.alterTable("nodes").addColumn("down_reason", "text").execute();
      await db.schema
        .alterTable("nodes")
        .addColumn("down_alerted", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const c of ["down_alerted", "down_reason", "down_since"]) {
        await db.schema.alterTable("nodes").dropColumn(c).execute();
      }
    },
  };
}
