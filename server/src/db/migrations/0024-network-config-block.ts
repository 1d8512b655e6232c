import type { Kysely } from "kysely";
import type { Dialect } from "./helpers.js";

/**
 * A Fabric channel's newest config block as this console last read it from the channel
 * (`POST /networks/fabric/{id}/reload-block`), base64 of its protobuf; null until it is read. The
 * genesis column keeps block 0, which peers need to join.
 */
export function networkConfigBlock(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable("networks").addColumn("config_block", "text").execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable("networks").dropColumn("config_block").execute();
    },
  };
}
