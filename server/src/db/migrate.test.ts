import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { dialects } from "../test-support/test-app.js";
import { migrateToLatest, openDatabase } from "./db.js";

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
