import type { Kysely } from "kysely";
import type { Dialect } from "./helpers.js";

/**
 * Remote key providers (Vault, AWS KMS) carry credentials: a token, unseal keys and the root token of
 * a managed Vault, an AWS secret key. They are kept apart from the public `config` JSON as one
 * AES-256-GCM envelope under the master key, bound to the provider id, and never returned.
 * `state` remembers whether a managed Vault should be running, so a restart brings it back.
 */
export function keyProviderSecrets(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable("key_providers").addColumn("secrets_encrypted", "text").execute();
      await db.schema
        .alterTable("key_providers")
        .addColumn("state", "varchar(16)", (c) => c.notNull().defaultTo(""))
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const c of ["state", "secrets_encrypted"]) {
        await db.schema.alterTable("key_providers").dropColumn(c).execute();
      }
    },
  };
}
