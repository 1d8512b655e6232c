import type { Kysely } from "kysely";
import { idColumn, type Dialect } from "./helpers.js";

/**
 * Networks of both platforms. Besu networks carry a chain id (unique among Besu networks) and
 * their genesis; Fabric channels will use the same table with their own config.
 */
export function networks(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable("networks"), dialect)
        .addColumn("name", "varchar(100)", (c) => c.notNull().unique())
        .addColumn("platform", "varchar(16)", (c) => c.notNull())
        .addColumn("description", "varchar(1000)")
        .addColumn("status", "varchar(32)", (c) => c.notNull())
        .addColumn("chain_id", "bigint")
        .addColumn("config", "text", (c) => c.notNull())
        .addColumn("genesis", "text")
        .addColumn("validators", "text", (c) => c.notNull().defaultTo("[]"))
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("networks_platform_chain_idx")
        .on("networks")
        .columns(["platform", "chain_id"])
        .unique()
        .execute();
      await idColumn(db.schema.createTable("network_validator_keys"), dialect)
        .addColumn("network_id", "integer", (c) => c.notNull().references("networks.id").onDelete("cascade"))
        .addColumn("key_id", "integer", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("network_validator_keys_key_idx")
        .on("network_validator_keys")
        .column("key_id")
        .execute();
    },
  };
}
