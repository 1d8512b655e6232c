import type { Kysely } from "kysely";
import type { Dialect } from "./helpers.js";

/**
 * Where a chaincode definition comes from: "console" (created here and taken through the
 * lifecycle by this console) or "adopted" (committed on the channel by someone else, the peer CLI
 * or another console, and recorded here from what the peers report).
 */
export function chaincodeDefinitionOrigin(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable("fabric_chaincode_definitions")
        .addColumn("origin", "varchar(16)", (c) => c.notNull().defaultTo("console"))
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable("fabric_chaincode_definitions").dropColumn("origin").execute();
    },
  };
}
