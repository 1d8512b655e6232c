import { sql, type CreateTableBuilder } from "kysely";

export type Dialect = "sqlite" | "postgres";

/** Adds an auto-incrementing integer primary key `id`, spelled the way each dialect wants it. */
export function idColumn<T extends string>(
  table: CreateTableBuilder<T, never>,
  dialect: Dialect,
): CreateTableBuilder<T, "id"> {
  return dialect === "postgres"
    ? table.addColumn("id", "serial", (c) => c.primaryKey())
    : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
}

export { sql };
