import type { Kysely } from "kysely";
import { idColumn, type Dialect } from "./helpers.js";

/**
 * Docker engines an admin registered besides the local one: a unix socket or tcp://host:port, with
 * TLS client material for tcp. The client key is one AES-256-GCM envelope under the master key,
 * bound to the engine's name, and never returned.
 */
export function dockerEngines(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable("docker_engines"), dialect)
        .addColumn("name", "varchar(64)", (c) => c.notNull().unique())
        .addColumn("host", "varchar(512)", (c) => c.notNull())
        .addColumn("tls_ca", "text")
        .addColumn("tls_cert", "text")
        .addColumn("tls_key_encrypted", "text")
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("docker_engines").execute();
    },
  };
}
