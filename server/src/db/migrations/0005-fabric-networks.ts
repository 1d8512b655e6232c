import type { Kysely } from "kysely";
import { idColumn, type Dialect } from "./helpers.js";

/**
 * Fabric channels live in `networks` (platform FABRIC, `genesis` = base64 genesis block). This adds
 * the nodes of each network and where each join stands (pending, joined, failed, unjoined), so a
 * failed join shows its error and can be retried without redoing the others.
 */
export function fabricNetworks(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable("network_nodes"), dialect)
        .addColumn("network_id", "integer", (c) => c.notNull().references("networks.id").onDelete("cascade"))
        .addColumn("node_id", "integer", (c) => c.notNull())
        .addColumn("role", "varchar(16)", (c) => c.notNull())
        .addColumn("status", "varchar(16)", (c) => c.notNull())
        .addColumn("error", "text")
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("network_nodes_network_node_idx")
        .on("network_nodes")
        .columns(["network_id", "node_id"])
        .unique()
        .execute();
      await db.schema.createIndex("network_nodes_node_idx").on("network_nodes").column("node_id").execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("network_nodes").execute();
    },
  };
}
