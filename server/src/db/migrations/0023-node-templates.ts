import { sql, type Kysely } from "kysely";
import { idColumn, type Dialect } from "./helpers.js";

/**
 * Node templates (upstream's `/templates`): a stored node or network configuration with typed
 * variables. At most one active default per (platform, node_type), decided by a partial unique
 * index so two concurrent set-defaults can't both win. Deletion is soft (`is_active` 0), as
 * upstream's. `builtin` names a template the console ships (seeded once; unique so a second
 * start inserts nothing).
 */
export function nodeTemplates(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable("node_templates"), dialect)
        .addColumn("name", "varchar(100)", (c) => c.notNull())
        .addColumn("description", "text", (c) => c.notNull())
        .addColumn("platform", "varchar(16)", (c) => c.notNull())
        .addColumn("node_type", "varchar(32)", (c) => c.notNull())
        .addColumn("version", "varchar(32)", (c) => c.notNull())
        // JSON object: the configuration, with {{variable}} placeholders.
        .addColumn("config", "text", (c) => c.notNull())
        // JSON array of TemplateVariable.
        .addColumn("variables", "text", (c) => c.notNull())
        // JSON array of strings.
        .addColumn("tags", "text", (c) => c.notNull())
        .addColumn("is_default", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1))
        .addColumn("usage_count", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("created_by", "varchar(100)", (c) => c.notNull())
        .addColumn("builtin", "varchar(64)", (c) => c.unique())
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await sql`CREATE UNIQUE INDEX node_templates_one_default ON node_templates (platform, node_type) WHERE is_default = 1`.execute(
        db,
      );
      await db.schema
        .createIndex("node_templates_platform")
        .on("node_templates")
        .columns(["platform", "node_type"])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("node_templates").execute();
    },
  };
}
