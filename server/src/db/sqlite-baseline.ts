/**
 * A new SQLite database gets the schema the migrations make, in one transaction, instead of running the 24
 * migrations one by one through Kysely's Migrator (~20 ms of a first start, issue 34, decision 75).
 *
 * The baseline (`sqlite-baseline.data.ts`) is what the migrations leave in a new database: the statements
 * SQLite keeps in `sqlite_master` (each table as it is after every `alter table`), the rows they wrote (the
 * Migrator's own lock row), and the names of the migrations it stands for. It is generated from the
 * migrations (`npm run gen:sqlite-baseline -w server`) and a test fails when it no longer matches them. It is
 * used only on an empty database, and only when it names exactly the migrations this build has: anything else
 * goes to the Migrator as before.
 */
import SQLite from "better-sqlite3";
import { sql, type Kysely } from "kysely";

export interface SqliteBaseline {
  /** The migrations the baseline stands for, in order. */
  migrations: string[];
  /** `sqlite_master`'s statements, in the order SQLite made the objects. */
  statements: string[];
  /** Rows the migrations wrote (besides the migration table's own), per table. */
  rows: { table: string; values: Record<string, string | number | null> }[];
}

/** Kysely's table of applied migrations (db.ts gives the Migrator this name). */
export const MIGRATION_TABLE = "schema_migrations";

/** The baseline of the database file at `path` (a new database the Migrator has just brought to the latest). */
export function dumpSqliteBaseline(path: string): SqliteBaseline {
  const db = new SQLite(path, { readonly: true });
  try {
    const objects = db
      .prepare(
        "select type, name, sql from sqlite_master where sql is not null and name not like 'sqlite_%' order by rowid",
      )
      .all() as { type: string; name: string; sql: string }[];
    const migrations = (
      db.prepare(`select name from ${MIGRATION_TABLE} order by name`).all() as { name: string }[]
    ).map((r) => r.name);
    const rows: SqliteBaseline["rows"] = [];
    for (const o of objects) {
      if (o.type !== "table" || o.name === MIGRATION_TABLE) continue;
      for (const values of db
        .prepare(`select * from "${o.name}" order by rowid`)
        .all() as SqliteBaseline["rows"][0]["values"][]) {
        rows.push({ table: o.name, values });
      }
    }
    return { migrations, statements: objects.map((o) => o.sql), rows };
  } finally {
    db.close();
  }
}

/**
 * Writes `baseline` into the database behind `db` when it is empty and `baseline` stands for exactly the
 * migrations `known`; returns the migrations it applied, or undefined (nothing done) otherwise. Called under
 * the migration lock.
 */
export async function applySqliteBaseline<T>(
  db: Kysely<T>,
  baseline: SqliteBaseline,
  known: string[],
): Promise<string[] | undefined> {
  if (baseline.migrations.length !== known.length || baseline.migrations.some((name, i) => name !== known[i])) {
    return undefined;
  }
  const { rows } = await sql<{ n: number }>`select count(*) as n from sqlite_master`.execute(db);
  if (Number(rows[0]?.n ?? 0) !== 0) return undefined;
  const timestamp = new Date().toISOString();
  const insert = (table: string, values: Record<string, string | number | null>) => {
    const columns = Object.keys(values);
    return sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) values (${sql.join(
      columns.map((c) => values[c]),
    )})`;
  };
  await db.transaction().execute(async (trx) => {
    for (const statement of baseline.statements) await sql.raw(statement).execute(trx);
    for (const row of baseline.rows) await insert(row.table, row.values).execute(trx);
    for (const name of baseline.migrations) await insert(MIGRATION_TABLE, { name, timestamp }).execute(trx);
  });
  return [...baseline.migrations];
}
