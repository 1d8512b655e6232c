import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { sql } from "kysely";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { dialects } from "../test-support/test-app.js";
import { migrateToLatest, openDatabase, type DatabaseHandle } from "./db.js";

async function freshUrl(): Promise<string> {
  const admin = inject("pgAdminUrl");
  const name = `m_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  return admin.replace(/\/[^/]*$/, `/${name}`);
}

describe.each(dialects())("migrations on %s", (dialect) => {
  it("apply once even when two processes boot at the same time", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "chainlaunch-mig-"));
    const databaseUrl = dialect === "postgres" ? await freshUrl() : undefined;
    const a = openDatabase({ dataDir, databaseUrl });
    const b = openDatabase({ dataDir, databaseUrl });
    try {
      const [ra, rb] = await Promise.all([migrateToLatest(a), migrateToLatest(b)]);
      expect([...ra, ...rb].filter((n) => n === "0001-foundation")).toHaveLength(1);
      expect(await migrateToLatest(a)).toEqual([]);
      const tables = [
        "users",
        "sessions",
        "api_keys",
        "api_key_logs",
        "audit_logs",
        "settings",
        "user_notifications",
      ] as const;
      for (const table of tables) await a.db.selectFrom(table).selectAll().limit(1).execute();
    } finally {
      await a.close();
      await b.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe.each(dialects())("an existing database on %s", (dialect) => {
  it("at the latest migration starts without the migration lock; one this build does not know is refused", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "chainlaunch-mig-"));
    const databaseUrl = dialect === "postgres" ? await freshUrl() : undefined;
    const h = openDatabase({ dataDir, databaseUrl });
    try {
      expect((await migrateToLatest(h)).length).toBeGreaterThan(20);
      // Another process holds the lock (a migration under way elsewhere): a database already at the latest
      // migration has nothing to wait for.
      const release = await holdMigrationLock(h, databaseUrl);
      try {
        const t0 = Date.now();
        expect(await migrateToLatest(h)).toEqual([]);
        expect(Date.now() - t0).toBeLessThan(2_000);
      } finally {
        await release();
      }
      // A database written by a newer build: the Migrator still refuses it, naming the migration.
      await sql`insert into schema_migrations (name, timestamp) values ('9999-from-a-newer-build', '2026-01-01T00:00:00Z')`.execute(
        h.db,
      );
      await expect(migrateToLatest(h)).rejects.toThrow(/9999-from-a-newer-build/);
    } finally {
      await h.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** Takes the migration lock the way another booting process would; resolves to its release. */
async function holdMigrationLock(h: DatabaseHandle, databaseUrl: string | undefined): Promise<() => Promise<void>> {
  if (h.sqlitePath) {
    const lock = new SQLite(`${h.sqlitePath}.migrate-lock`);
    lock.exec("BEGIN EXCLUSIVE");
    return async () => {
      lock.exec("COMMIT");
      lock.close();
    };
  }
  // Kysely's PostgreSQL migration lock: a session advisory lock, held here by another connection.
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  await c.query(`select pg_advisory_lock(${KYSELY_PG_MIGRATION_LOCK})`);
  return async () => {
    await c.end();
  };
}

/** The advisory lock id Kysely's PostgreSQL adapter takes while it migrates. */
const KYSELY_PG_MIGRATION_LOCK = "3853314791062309107";

describe("sqlite pragmas", () => {
  it("runs with WAL, foreign keys and a busy timeout", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "chainlaunch-pragma-"));
    const h = openDatabase({ dataDir });
    try {
      const { sql } = await import("kysely");
      const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(h.db);
      const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(h.db);
      const busy = await sql<{ timeout: number }>`pragma busy_timeout`.execute(h.db);
      expect(mode.rows[0]?.journal_mode).toBe("wal");
      expect(fk.rows[0]?.foreign_keys).toBe(1);
      expect(busy.rows[0]?.timeout).toBe(5000);
    } finally {
      await h.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
