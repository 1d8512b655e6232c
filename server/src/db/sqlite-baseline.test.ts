import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { migrateToLatest, openDatabase, type DatabaseHandle } from "./db.js";
import { currentSqliteBaseline } from "./gen-sqlite-baseline.js";
import { SQLITE_BASELINE } from "./sqlite-baseline.data.js";
import type { SqliteBaseline } from "./sqlite-baseline.js";

// A new SQLite database gets the migrations' schema in one step (db/sqlite-baseline.ts). It must be the
// database the Migrator makes, and it must never be used where it would not be.

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function fresh(): DatabaseHandle {
  const dir = mkdtempSync(join(tmpdir(), "chainlaunch-baseline-test-"));
  dirs.push(dir);
  return openDatabase({ dataDir: dir });
}

/** Everything in the database but the migrations' timestamps. */
function contents(path: string) {
  const db = new SQLite(path, { readonly: true });
  try {
    const objects = db.prepare("select type, name, tbl_name, sql from sqlite_master order by type, name").all() as {
      type: string;
      name: string;
    }[];
    const rows: Record<string, unknown[]> = {};
    for (const o of objects) {
      if (o.type !== "table") continue;
      rows[o.name] = db.prepare(`select * from "${o.name}" order by rowid`).all();
    }
    rows.schema_migrations = (rows.schema_migrations as { name: string }[]).map((r) => r.name);
    return { objects, rows };
  } finally {
    db.close();
  }
}

/** A baseline that would leave a table named `marker` if it were used. */
function marked(base: SqliteBaseline): SqliteBaseline {
  return { ...base, statements: [...base.statements, 'CREATE TABLE "marker" ("x" integer)'] };
}

function hasMarker(path: string): boolean {
  const db = new SQLite(path, { readonly: true });
  try {
    return db.prepare("select 1 from sqlite_master where name = 'marker'").get() !== undefined;
  } finally {
    db.close();
  }
}

describe("the SQLite baseline", () => {
  it("is what the migrations make now (else: npm run gen:sqlite-baseline -w server)", async () => {
    expect(await currentSqliteBaseline()).toEqual(SQLITE_BASELINE);
  });

  it("makes the database the Migrator makes, which then needs no migration", async () => {
    const viaBaseline = fresh();
    const viaMigrator = fresh();
    try {
      expect(await migrateToLatest(viaBaseline)).toEqual(SQLITE_BASELINE.migrations);
      expect(await migrateToLatest(viaMigrator, { baseline: false })).toEqual(SQLITE_BASELINE.migrations);
      expect(contents(viaBaseline.sqlitePath!)).toEqual(contents(viaMigrator.sqlitePath!));
      expect(await migrateToLatest(viaBaseline)).toEqual([]);
      // The schema is usable as made: a user, and a session that cascades with it.
      await viaBaseline.db
        .insertInto("users")
        .values({
          username: "u",
          password_hash: "x",
          role: "admin",
          created_at: "t",
          updated_at: "t",
          last_login_at: null,
        })
        .execute();
      expect(await viaBaseline.db.selectFrom("users").select("username").execute()).toEqual([{ username: "u" }]);
    } finally {
      await viaBaseline.close();
      await viaMigrator.close();
    }
  });

  it("is not used for other migrations than this build's, nor on a database that is not empty", async () => {
    const stale = fresh();
    const notEmpty = fresh();
    try {
      const older = marked({ ...SQLITE_BASELINE, migrations: SQLITE_BASELINE.migrations.slice(0, -1) });
      expect(await migrateToLatest(stale, { baseline: older })).toEqual(SQLITE_BASELINE.migrations);
      expect(hasMarker(stale.sqlitePath!)).toBe(false);

      new SQLite(notEmpty.sqlitePath!).exec('CREATE TABLE "left_by_someone" ("x" integer)');
      expect(await migrateToLatest(notEmpty, { baseline: marked(SQLITE_BASELINE) })).toEqual(
        SQLITE_BASELINE.migrations,
      );
      expect(hasMarker(notEmpty.sqlitePath!)).toBe(false);
    } finally {
      await stale.close();
      await notEmpty.close();
    }
  });
});
