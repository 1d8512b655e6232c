import type { Kysely } from "kysely";
import { idColumn, type Dialect } from "./helpers.js";

/**
 * Federation between consoles (docs/federation.md): this console's identity key (one row, id 1),
 * the invitations it issued (one-time nonces), the consoles it is connected with, the message
 * nonces it has seen (replay protection), and the organizations and nodes synced from them.
 */
export function federation(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("federation_identity")
        .addColumn("id", "integer", (c) => c.primaryKey())
        .addColumn("node_id", "varchar(64)", (c) => c.notNull())
        .addColumn("public_key", "varchar(64)", (c) => c.notNull())
        .addColumn("private_key_encrypted", "text", (c) => c.notNull())
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .execute();

      await idColumn(db.schema.createTable("federation_invitations"), dialect)
        .addColumn("nonce", "varchar(64)", (c) => c.notNull().unique())
        .addColumn("bidirectional", "integer", (c) => c.notNull())
        .addColumn("expires_at", "varchar(32)", (c) => c.notNull())
        .addColumn("used_at", "varchar(32)")
        .addColumn("used_by_node_id", "varchar(64)")
        .addColumn("created_by", "varchar(255)")
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .execute();

      await idColumn(db.schema.createTable("federation_connections"), dialect)
        .addColumn("node_id", "varchar(64)", (c) => c.notNull().unique())
        .addColumn("endpoint", "varchar(2048)", (c) => c.notNull())
        .addColumn("public_key", "varchar(64)", (c) => c.notNull())
        .addColumn("status", "varchar(16)", (c) => c.notNull())
        .addColumn("metrics_federation", "integer", (c) => c.notNull())
        .addColumn("last_seen_at", "varchar(32)")
        .addColumn("last_error", "text")
        .addColumn("revoked_at", "varchar(32)")
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();

      await idColumn(db.schema.createTable("federation_seen_nonces"), dialect)
        .addColumn("node_id", "varchar(64)", (c) => c.notNull())
        .addColumn("nonce", "varchar(64)", (c) => c.notNull())
        .addColumn("seen_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("federation_seen_nonces_node_nonce")
        .on("federation_seen_nonces")
        .columns(["node_id", "nonce"])
        .unique()
        .execute();
      await db.schema
        .createIndex("federation_seen_nonces_seen_at")
        .on("federation_seen_nonces")
        .column("seen_at")
        .execute();

      await idColumn(db.schema.createTable("external_fabric_organizations"), dialect)
        .addColumn("connection_id", "integer", (c) => c.notNull())
        .addColumn("source_node_id", "varchar(64)", (c) => c.notNull())
        .addColumn("remote_id", "integer", (c) => c.notNull())
        .addColumn("msp_id", "varchar(255)", (c) => c.notNull())
        .addColumn("name", "varchar(255)", (c) => c.notNull())
        .addColumn("sign_certificate", "text", (c) => c.notNull())
        .addColumn("tls_certificate", "text", (c) => c.notNull())
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("external_fabric_organizations_source_remote")
        .on("external_fabric_organizations")
        .columns(["source_node_id", "remote_id"])
        .unique()
        .execute();

      await idColumn(db.schema.createTable("external_fabric_nodes"), dialect)
        .addColumn("connection_id", "integer", (c) => c.notNull())
        .addColumn("source_node_id", "varchar(64)", (c) => c.notNull())
        .addColumn("remote_id", "integer", (c) => c.notNull())
        .addColumn("role", "varchar(16)", (c) => c.notNull())
        .addColumn("name", "varchar(255)", (c) => c.notNull())
        .addColumn("msp_id", "varchar(255)", (c) => c.notNull())
        .addColumn("external_endpoint", "varchar(512)", (c) => c.notNull())
        .addColumn("sign_certificate", "text", (c) => c.notNull())
        .addColumn("tls_certificate", "text", (c) => c.notNull())
        .addColumn("tls_ca_certificate", "text", (c) => c.notNull())
        .addColumn("version", "varchar(64)", (c) => c.notNull())
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("external_fabric_nodes_source_remote")
        .on("external_fabric_nodes")
        .columns(["source_node_id", "remote_id"])
        .unique()
        .execute();

      await idColumn(db.schema.createTable("external_besu_nodes"), dialect)
        .addColumn("connection_id", "integer", (c) => c.notNull())
        .addColumn("source_node_id", "varchar(64)", (c) => c.notNull())
        .addColumn("remote_id", "integer", (c) => c.notNull())
        .addColumn("name", "varchar(255)", (c) => c.notNull())
        .addColumn("enode_url", "varchar(1024)", (c) => c.notNull())
        .addColumn("rpc_url", "varchar(1024)", (c) => c.notNull())
        .addColumn("p2p_host", "varchar(253)", (c) => c.notNull())
        .addColumn("p2p_port", "integer", (c) => c.notNull())
        .addColumn("metrics_enabled", "integer", (c) => c.notNull())
        .addColumn("metrics_port", "integer", (c) => c.notNull())
        .addColumn("version", "varchar(64)", (c) => c.notNull())
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("external_besu_nodes_source_remote")
        .on("external_besu_nodes")
        .columns(["source_node_id", "remote_id"])
        .unique()
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const t of [
        "external_besu_nodes",
        "external_fabric_nodes",
        "external_fabric_organizations",
        "federation_seen_nonces",
        "federation_connections",
        "federation_invitations",
        "federation_identity",
      ]) {
        await db.schema.dropTable(t).execute();
      }
    },
  };
}
