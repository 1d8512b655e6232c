import type { Kysely } from "kysely";
import { idColumn, type Dialect } from "./helpers.js";

/**
 * Fabric chaincodes (a name on one channel), their definitions (version, sequence, policy, where
 * the code comes from, how it runs) and each definition's timeline of lifecycle steps.
 */
export function fabricChaincodes(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable("fabric_chaincodes"), dialect)
        .addColumn("name", "varchar(255)", (c) => c.notNull())
        .addColumn("network_id", "integer", (c) => c.notNull().references("networks.id").onDelete("cascade"))
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("fabric_chaincodes_network_name_idx")
        .on("fabric_chaincodes")
        .columns(["network_id", "name"])
        .unique()
        .execute();
      await idColumn(db.schema.createTable("fabric_chaincode_definitions"), dialect)
        .addColumn("chaincode_id", "integer", (c) => c.notNull().references("fabric_chaincodes.id").onDelete("cascade"))
        .addColumn("version", "varchar(255)", (c) => c.notNull())
        .addColumn("sequence", "integer", (c) => c.notNull())
        .addColumn("endorsement_policy", "text", (c) => c.notNull())
        .addColumn("init_required", "integer", (c) => c.notNull())
        .addColumn("collections", "text", (c) => c.notNull())
        .addColumn("docker_image", "text", (c) => c.notNull())
        .addColumn("chaincode_address", "varchar(255)", (c) => c.notNull())
        .addColumn("source_type", "varchar(16)", (c) => c.notNull())
        .addColumn("source_path", "text")
        .addColumn("tls", "integer", (c) => c.notNull())
        .addColumn("tls_key_id", "integer")
        .addColumn("package_id", "text")
        .addColumn("environment", "text", (c) => c.notNull())
        .addColumn("deploy_status", "varchar(16)", (c) => c.notNull())
        .addColumn("deploy_error", "text")
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("fabric_chaincode_definitions_seq_idx")
        .on("fabric_chaincode_definitions")
        .columns(["chaincode_id", "sequence"])
        .unique()
        .execute();
      await idColumn(db.schema.createTable("fabric_chaincode_events"), dialect)
        .addColumn("definition_id", "integer", (c) =>
          c.notNull().references("fabric_chaincode_definitions.id").onDelete("cascade"),
        )
        .addColumn("event_type", "varchar(32)", (c) => c.notNull())
        .addColumn("event_data", "text", (c) => c.notNull())
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("fabric_chaincode_events_definition_idx")
        .on("fabric_chaincode_events")
        .column("definition_id")
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("fabric_chaincode_events").execute();
      await db.schema.dropTable("fabric_chaincode_definitions").execute();
      await db.schema.dropTable("fabric_chaincodes").execute();
    },
  };
}
