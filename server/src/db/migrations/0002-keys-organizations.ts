import type { Kysely } from "kysely";
import { idColumn, type Dialect } from "./helpers.js";

/**
 * Key providers, keys (private keys only ever as AES-256-GCM envelopes), Fabric organizations,
 * their identities and revoked certificates.
 */
export function keysOrganizations(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable("key_providers"), dialect)
        .addColumn("name", "varchar(100)", (c) => c.notNull().unique())
        .addColumn("type", "varchar(16)", (c) => c.notNull())
        .addColumn("is_default", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("config", "text", (c) => c.notNull())
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();

      await idColumn(db.schema.createTable("keys"), dialect)
        .addColumn("name", "varchar(255)", (c) => c.notNull())
        .addColumn("description", "varchar(1000)")
        .addColumn("algorithm", "varchar(16)", (c) => c.notNull())
        .addColumn("curve", "varchar(16)")
        .addColumn("key_size", "integer")
        .addColumn("provider_id", "integer", (c) => c.notNull().references("key_providers.id"))
        .addColumn("provider_key_ref", "text")
        .addColumn("public_key", "text", (c) => c.notNull())
        .addColumn("private_key_encrypted", "text")
        .addColumn("certificate", "text")
        .addColumn("is_ca", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("signing_key_id", "integer", (c) => c.references("keys.id").onDelete("set null"))
        .addColumn("sha256_fingerprint", "varchar(64)", (c) => c.notNull())
        .addColumn("sha1_fingerprint", "varchar(40)", (c) => c.notNull())
        .addColumn("ethereum_address", "varchar(42)")
        .addColumn("status", "varchar(16)", (c) => c.notNull())
        .addColumn("expires_at", "varchar(32)")
        .addColumn("last_rotated_at", "varchar(32)")
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("keys_provider_idx").on("keys").column("provider_id").execute();
      await db.schema.createIndex("keys_algorithm_idx").on("keys").columns(["algorithm", "curve"]).execute();

      await idColumn(db.schema.createTable("fabric_organizations"), dialect)
        .addColumn("msp_id", "varchar(249)", (c) => c.notNull().unique())
        .addColumn("name", "varchar(255)", (c) => c.notNull())
        .addColumn("description", "varchar(1000)")
        .addColumn("provider_id", "integer", (c) => c.notNull().references("key_providers.id"))
        .addColumn("sign_key_id", "integer", (c) => c.notNull().references("keys.id"))
        .addColumn("tls_root_key_id", "integer", (c) => c.notNull().references("keys.id"))
        .addColumn("admin_sign_key_id", "integer", (c) => c.references("keys.id"))
        .addColumn("admin_tls_key_id", "integer", (c) => c.references("keys.id"))
        .addColumn("client_sign_key_id", "integer", (c) => c.references("keys.id"))
        .addColumn("crl_number", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("crl_last_update", "varchar(32)")
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();

      await idColumn(db.schema.createTable("organization_keys"), dialect)
        .addColumn("organization_id", "integer", (c) =>
          c.notNull().references("fabric_organizations.id").onDelete("cascade"),
        )
        .addColumn("key_id", "integer", (c) => c.notNull().references("keys.id"))
        .addColumn("role", "varchar(16)", (c) => c.notNull())
        .addColumn("purpose", "varchar(16)", (c) => c.notNull())
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("organization_keys_org_idx")
        .on("organization_keys")
        .column("organization_id")
        .execute();
      await db.schema
        .createIndex("organization_keys_key_idx")
        .on("organization_keys")
        .column("key_id")
        .unique()
        .execute();

      await idColumn(db.schema.createTable("organization_revoked_certificates"), dialect)
        .addColumn("organization_id", "integer", (c) =>
          c.notNull().references("fabric_organizations.id").onDelete("cascade"),
        )
        .addColumn("serial_number", "varchar(42)", (c) => c.notNull())
        .addColumn("ca_type", "varchar(8)", (c) => c.notNull())
        .addColumn("reason", "integer", (c) => c.notNull())
        .addColumn("revocation_time", "varchar(32)", (c) => c.notNull())
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("organization_revoked_unique")
        .on("organization_revoked_certificates")
        .columns(["organization_id", "serial_number"])
        .unique()
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const t of [
        "organization_revoked_certificates",
        "organization_keys",
        "fabric_organizations",
        "keys",
        "key_providers",
      ]) {
        await db.schema.dropTable(t).execute();
      }
    },
  };
}
