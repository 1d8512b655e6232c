import type { Kysely } from "kysely";
import { idColumn, type Dialect } from "./helpers.js";

/**
 * Chaincode projects: source folders in the data directory, started from a boilerplate and bound to a
 * Fabric channel with an endorsement policy. A project's runs go through a chaincode of its own
 * (`chaincode_id`, created on the first start).
 */
export function chaincodeProjects(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable("chaincode_projects"), dialect)
        .addColumn("name", "varchar(255)", (c) => c.notNull())
        .addColumn("slug", "varchar(255)", (c) => c.notNull().unique())
        .addColumn("description", "text", (c) => c.notNull())
        .addColumn("boilerplate", "varchar(64)", (c) => c.notNull())
        .addColumn("network_id", "integer", (c) => c.notNull().references("networks.id").onDelete("restrict"))
        .addColumn("endorsement_policy", "text", (c) => c.notNull())
        .addColumn("status", "varchar(16)", (c) => c.notNull())
        .addColumn("chaincode_id", "integer", (c) => c.references("fabric_chaincodes.id").onDelete("set null"))
        .addColumn("last_error", "text")
        .addColumn("last_started_at", "varchar(32)")
        .addColumn("last_stopped_at", "varchar(32)")
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("chaincode_projects").execute();
    },
  };
}
