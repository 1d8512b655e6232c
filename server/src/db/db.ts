import { mkdirSync } from "node:fs";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from "kysely";
import type { Dialect } from "./migrations/helpers.js";
import { migrationProvider } from "./migrations/index.js";
import { applySqliteBaseline, MIGRATION_TABLE, type SqliteBaseline } from "./sqlite-baseline.js";
import { SQLITE_BASELINE } from "./sqlite-baseline.data.js";
import type { Database } from "./types.js";

export type DB = Kysely<Database>;

export interface DatabaseHandle {
  db: DB;
  dialect: Dialect;
  /** The SQLite file, when the dialect is SQLite. */
  sqlitePath?: string;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** A postgres:// URL; SQLite in dataDir is used when absent. */
  databaseUrl?: string | undefined;
  dataDir: string;
  /** SQLite file name inside dataDir. */
  sqliteFile?: string;
}

/** The SQLite file's name in the data directory. */
export const SQLITE_FILE = "chainlaunch.db";

/**
 * Opens the database. SQLite runs with WAL, foreign keys and a busy timeout so that
 * the CLI and the server can share the file.
 */
export function openDatabase(opts: OpenDatabaseOptions): DatabaseHandle {
  if (opts.databaseUrl) {
    const connectionString = opts.databaseUrl;
    // The pg driver is loaded with the first query, so SQLite installs never load it.
    const pool = async () => new (await import("pg")).default.Pool({ connectionString, max: 10 });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: "postgres", close: () => db.destroy() };
  }
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  const sqlitePath = join(opts.dataDir, opts.sqliteFile ?? SQLITE_FILE);
  const sqlite = new SQLite(sqlitePath);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, dialect: "sqlite", sqlitePath, close: () => db.destroy() };
}

const STATEMENT_CACHE = 256;

/**
 * Kysely prepares every query afresh, and compiling SQL is most of what a small SQLite query costs on
 * the event loop. Statements are reusable (Kysely runs each to completion with `all`/`run` before the
 * next), so the most recently used ones are kept by their SQL text.
 */
function withStatementCache(sqlite: SQLite.Database): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  const prepare = (sql: string): SQLite.Statement => {
    let stmt = cache.get(sql);
    if (stmt) {
      cache.delete(sql);
    } else {
      stmt = sqlite.prepare(sql);
      if (cache.size >= STATEMENT_CACHE) cache.delete(cache.keys().next().value as string);
    }
    cache.set(sql, stmt);
    return stmt;
  };
  return new Proxy(sqlite, {
    get(target, prop, receiver) {
      if (prop === "prepare") return prepare;
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const inProcess = new Map<string, Promise<unknown>>();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Serialises SQLite migrations across processes and within this one. Kysely's SQLite adapter has
 * no migration lock (it assumes one connection), so we hold an EXCLUSIVE transaction on a small
 * side database; SQLite's own file locking excludes other processes and releases if we die.
 */
async function withSqliteLock<T>(dbPath: string, fn: () => Promise<T>): Promise<T> {
  const prev = inProcess.get(dbPath) ?? Promise.resolve();
  const run = prev
    .catch(() => undefined)
    .then(async () => {
      const lock = new SQLite(`${dbPath}.migrate-lock`);
      lock.pragma("busy_timeout = 0");
      const deadline = Date.now() + 120_000;
      for (;;) {
        try {
          lock.exec("BEGIN EXCLUSIVE");
          break;
        } catch (err) {
          if ((err as { code?: string }).code !== "SQLITE_BUSY" || Date.now() > deadline) {
            lock.close();
            throw err;
          }
          await sleep(50);
        }
      }
      try {
        return await fn();
      } finally {
        lock.exec("COMMIT");
        lock.close();
      }
    });
  inProcess.set(dbPath, run);
  return run;
}

/**
 * Applies pending migrations under a lock (Kysely's lock table on PostgreSQL, a file lock on
 * SQLite), so two processes booting at once apply each migration exactly once.
 */
export async function migrateToLatest(
  handle: DatabaseHandle,
  opts: {
    /** The schema a new SQLite database gets in one step (db/sqlite-baseline.ts); false: the Migrator only. */
    baseline?: SqliteBaseline | false;
  } = {},
): Promise<string[]> {
  const known = await knownMigrations(handle);
  if (await isAtLatest(handle, known)) return [];
  if (handle.sqlitePath) {
    return withSqliteLock(handle.sqlitePath, async () => {
      const baseline = opts.baseline ?? SQLITE_BASELINE;
      const applied = baseline ? await applySqliteBaseline(handle.db, baseline, known) : undefined;
      return applied ?? migrate(handle);
    });
  }
  return migrate(handle);
}

/** The names of the migrations this build has, sorted. */
async function knownMigrations(handle: DatabaseHandle): Promise<string[]> {
  return Object.keys(await migrationProvider(handle.dialect).getMigrations()).sort();
}

/**
 * True when the database has recorded exactly the migrations this build knows, so there is nothing to
 * apply (the start of an existing install). One query, with no lock: Kysely's Migrator would take the
 * lock and read every table's columns to find that out (~30 ms of a start, issue 34). Anything else (no
 * migration table yet, one missing, one this build does not know) goes to the Migrator, which applies
 * or refuses as before.
 */
async function isAtLatest(handle: DatabaseHandle, known: string[]): Promise<boolean> {
  let applied: string[];
  try {
    if (handle.dialect === "postgres") {
      // Asked first so that a new database's first start leaves no "relation does not exist" in PostgreSQL's log.
      const { rows } = await sql<{ t: string | null }>`select to_regclass(${MIGRATION_TABLE}) as t`.execute(handle.db);
      if (!rows[0]?.t) return false;
    }
    const { rows } = await sql<{ name: string }>`select name from ${sql.table(MIGRATION_TABLE)}`.execute(handle.db);
    // Sorted here, not by the database: PostgreSQL's collation may order names differently from SQLite.
    applied = rows.map((r) => r.name).sort();
  } catch {
    return false;
  }
  return applied.length === known.length && applied.every((name, i) => name === known[i]);
}

async function migrate(handle: DatabaseHandle): Promise<string[]> {
  const migrator = new Migrator({
    db: handle.db,
    provider: migrationProvider(handle.dialect),
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: "schema_migrations_lock",
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === "Error")?.migrationName ?? "unknown";
    throw new Error(`database migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/** Current time as the ISO string every timestamp column stores. */
export function nowIso(): string {
  return new Date().toISOString();
}
