import type { Kysely } from "kysely";
import { idColumn, type Dialect } from "./helpers.js";

/**
 * Chaincode-definition proposals shared between consoles (docs/governance.md, "Chaincode proposals"):
 * the definition's fields, where its source archive is kept, and the local chaincode and definition
 * once created. `def_id` is the proposer's slug, kept on every console; with `connection_id` (0 when
 * proposed here) it is unique, so a repeated share from the same console is found again.
 */
export function chaincodeProposals(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable("chaincode_proposals"), dialect)
        .addColumn("def_id", "varchar(64)", (c) => c.notNull())
        .addColumn("name", "varchar(128)", (c) => c.notNull())
        .addColumn("network_id", "integer", (c) => c.notNull())
        .addColumn("channel_name", "varchar(255)", (c) => c.notNull())
        .addColumn("version", "varchar(64)", (c) => c.notNull())
        .addColumn("sequence", "integer", (c) => c.notNull())
        .addColumn("endorsement_policy", "text", (c) => c.notNull())
        .addColumn("docker_image", "varchar(500)", (c) => c.notNull())
        .addColumn("chaincode_address", "varchar(300)", (c) => c.notNull())
        .addColumn("init_required", "integer", (c) => c.notNull())
        .addColumn("source_type", "varchar(16)", (c) => c.notNull())
        .addColumn("source_sha256", "varchar(64)", (c) => c.notNull())
        .addColumn("source_archive", "text")
        .addColumn("status", "varchar(16)", (c) => c.notNull())
        .addColumn("error", "text", (c) => c.notNull())
        .addColumn("connection_id", "integer", (c) => c.notNull())
        .addColumn("shared_by", "varchar(255)", (c) => c.notNull())
        .addColumn("shared_by_node_id", "varchar(128)", (c) => c.notNull())
        .addColumn("created_by", "varchar(255)", (c) => c.notNull())
        .addColumn("chaincode_id", "integer")
        .addColumn("definition_id", "integer")
        .addColumn("shared_with", "text", (c) => c.notNull())
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("chaincode_proposals_origin")
        .on("chaincode_proposals")
        .columns(["connection_id", "def_id"])
        .unique()
        .execute();
      await db.schema
        .createIndex("chaincode_proposals_network")
        .on("chaincode_proposals")
        .columns(["network_id", "created_at"])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("chaincode_proposals").execute();
    },
  };
}
