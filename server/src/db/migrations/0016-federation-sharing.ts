import type { Kysely } from "kysely";
import type { Dialect } from "./helpers.js";

/**
 * Networks and public keys shared between consoles (docs/federation.md, "Sharing"): one row per
 * share this console sent and per share it received. A received row is unique per (connection,
 * the sender's share id), so a duplicate delivery can't create a second one.
 */
export function federationSharing(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("federation_shares")
        .addColumn("id", "varchar(36)", (c) => c.primaryKey())
        .addColumn("direction", "varchar(16)", (c) => c.notNull())
        .addColumn("kind", "varchar(16)", (c) => c.notNull())
        .addColumn("connection_id", "integer")
        .addColumn("remote_share_id", "varchar(64)")
        .addColumn("resource_id", "varchar(64)", (c) => c.notNull())
        .addColumn("name", "varchar(255)", (c) => c.notNull())
        .addColumn("platform", "varchar(16)")
        .addColumn("data_json", "text", (c) => c.notNull())
        .addColumn("status", "varchar(16)", (c) => c.notNull())
        .addColumn("error", "text")
        .addColumn("local_network_id", "integer")
        .addColumn("shared_by", "varchar(255)")
        .addColumn("expires_at", "varchar(32)")
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("federation_shares_connection_remote")
        .on("federation_shares")
        .columns(["connection_id", "remote_share_id"])
        .unique()
        .execute();
      await db.schema
        .createIndex("federation_shares_kind_created")
        .on("federation_shares")
        .columns(["kind", "created_at"])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("federation_shares").execute();
    },
  };
}
