import type { Kysely } from "kysely";
import { idColumn, type Dialect } from "./helpers.js";

/**
 * Channel config-update proposals signed across consoles (docs/governance.md): the proposal with
 * its marshalled ConfigUpdate and the config sequence it was computed against, the org admin
 * signatures collected for it (local or received), and its timeline.
 */
export function governanceProposals(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("governance_proposals")
        .addColumn("id", "varchar(36)", (c) => c.primaryKey())
        .addColumn("network_id", "integer")
        .addColumn("channel_name", "varchar(255)", (c) => c.notNull())
        .addColumn("proposal_type", "varchar(64)", (c) => c.notNull())
        .addColumn("operations_json", "text", (c) => c.notNull())
        .addColumn("update_b64", "text", (c) => c.notNull())
        .addColumn("preview_json", "text", (c) => c.notNull())
        .addColumn("config_b64", "text", (c) => c.notNull())
        .addColumn("config_sequence", "integer", (c) => c.notNull())
        .addColumn("status", "varchar(16)", (c) => c.notNull())
        .addColumn("tx_id", "varchar(128)")
        .addColumn("origin_node_id", "varchar(128)")
        .addColumn("connection_id", "integer")
        .addColumn("remote_proposal_id", "varchar(64)")
        .addColumn("created_by", "varchar(255)", (c) => c.notNull())
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("governance_proposals_connection_remote")
        .on("governance_proposals")
        .columns(["connection_id", "remote_proposal_id"])
        .unique()
        .execute();
      await idColumn(db.schema.createTable("governance_signatures"), dialect)
        .addColumn("proposal_id", "varchar(36)", (c) => c.notNull())
        .addColumn("msp_id", "varchar(100)", (c) => c.notNull())
        .addColumn("signature_header_b64", "text", (c) => c.notNull())
        .addColumn("signature_b64", "text", (c) => c.notNull())
        .addColumn("signed_by", "varchar(255)", (c) => c.notNull())
        .addColumn("source", "varchar(16)", (c) => c.notNull())
        .addColumn("connection_id", "integer")
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("governance_signatures_proposal_msp")
        .on("governance_signatures")
        .columns(["proposal_id", "msp_id"])
        .unique()
        .execute();
      await db.schema
        .createTable("governance_events")
        .addColumn("id", "varchar(36)", (c) => c.primaryKey())
        .addColumn("proposal_id", "varchar(36)", (c) => c.notNull())
        .addColumn("event_type", "varchar(64)", (c) => c.notNull())
        .addColumn("data_json", "text", (c) => c.notNull())
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("governance_events_proposal")
        .on("governance_events")
        .columns(["proposal_id", "created_at"])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("governance_events").execute();
      await db.schema.dropTable("governance_signatures").execute();
      await db.schema.dropTable("governance_proposals").execute();
    },
  };
}
