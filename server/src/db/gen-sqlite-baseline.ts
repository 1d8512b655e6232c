/**
 * Writes db/sqlite-baseline.data.ts: what the migrations make in a new SQLite database (db/sqlite-baseline.ts).
 * Run after adding a migration: `npm run gen:sqlite-baseline -w server` (db/sqlite-baseline.test.ts fails until
 * the file matches the migrations).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { migrateToLatest, openDatabase } from "./db.js";
import { dumpSqliteBaseline, type SqliteBaseline } from "./sqlite-baseline.js";

/** The baseline the migrations make now, by running them through the Migrator on a new database. */
export async function currentSqliteBaseline(): Promise<SqliteBaseline> {
  const dir = mkdtempSync(join(tmpdir(), "chainlaunch-baseline-"));
  try {
    const handle = openDatabase({ dataDir: dir });
    try {
      await migrateToLatest(handle, { baseline: false });
    } finally {
      await handle.close();
    }
    return dumpSqliteBaseline(handle.sqlitePath!);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The text of db/sqlite-baseline.data.ts for `baseline`. */
export function baselineModule(baseline: SqliteBaseline): string {
  return `// Generated from the migrations by src/db/gen-sqlite-baseline.ts (npm run gen:sqlite-baseline -w server); do not edit.
import type { SqliteBaseline } from "./sqlite-baseline.js";

export const SQLITE_BASELINE: SqliteBaseline = ${JSON.stringify(baseline, null, 2)};
`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const out = join(dirname(fileURLToPath(import.meta.url)), "sqlite-baseline.data.ts");
  writeFileSync(out, baselineModule(await currentSqliteBaseline()));
  process.stdout.write(`wrote ${out}\n`);
}
