import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "../../db/db.js";
import { freePort } from "../../test-support/ports.js";
import { ADMIN_PASSWORD, createTestApp, dialects, type TestApp } from "../../test-support/test-app.js";

/**
 * kill -9 in the middle of organization creation (issue 10, item 18): the keys of organizations
 * that never committed must not outlive the next boot. Runs the real server as a child process.
 */
const main = fileURLToPath(new URL("../../main.ts", import.meta.url));
const auth = { authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString("base64")}` };
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function startServer(dataDir: string, databaseUrl: string | undefined, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", main, "serve"], {
    env: {
      ...process.env,
      CHAINLAUNCH_DATA: dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      PORT: String(port),
      HOST: "127.0.0.1",
      CHAINLAUNCH_ADMIN_PASSWORD: ADMIN_PASSWORD,
      LOG_LEVEL: "silent",
    },
    stdio: "ignore",
  });
  const until = Date.now() + 60_000;
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return child;
    if (Date.now() > until || child.exitCode !== null) throw new Error("server did not start");
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function orphanKeys(handle: DatabaseHandle): Promise<number> {
  const r = await sql<{ n: number | string }>`
    select count(*) as n from keys where id not in (select key_id from organization_keys)
  `.execute(handle.db);
  return Number(r.rows[0]!.n);
}

describe.each(dialects())("organization creation killed mid-way on %s", (dialect) => {
  it("leaves no keys without an organization after the next boot", { timeout: 180_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "cl-crash-"));
    dirs.push(dataDir);
    let databaseUrl: string | undefined;
    if (dialect === "postgres") {
      // A fresh database (createTestApp makes one); the server under test gets its own data dir.
      const scratch: TestApp = await createTestApp("postgres");
      databaseUrl = scratch.config.databaseUrl;
      await scratch.close();
    }
    const port = await freePort();
    const child = await startServer(dataDir, databaseUrl, port);
    let created = 0;
    const fire = async (i: number): Promise<void> => {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/organizations`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ mspId: `Crash${i}MSP`, name: `crash ${i}` }),
      }).catch(() => undefined);
      if (res?.status === 201) created++;
    };
    // Keep creations in flight, then kill the server without warning.
    const inflight = Array.from({ length: 80 }, (_, i) => fire(i));
    // Kill once creations are completing, so others are surely half-way through.
    const until = Date.now() + 60_000;
    while (created < 3 && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
    child.kill("SIGKILL");
    await Promise.allSettled(inflight);

    const handle = openDatabase({ dataDir, databaseUrl });
    try {
      const before = await orphanKeys(handle);
      console.log(`${dialect}: ${created} organizations created before the kill; ${before} keys left without one`);
      // The next boot (an in-process app on the same database) removes what the crash left pending.
      const again = await startServer(dataDir, databaseUrl, port);
      again.kill("SIGTERM");
      expect(await orphanKeys(handle), `orphans before the reboot: ${before}, organizations created: ${created}`).toBe(
        0,
      );
      const orgs = await sql<{ n: number | string }>`select count(*) as n from fabric_organizations`.execute(handle.db);
      const keys = await sql<{ n: number | string }>`select count(*) as n from keys`.execute(handle.db);
      expect(Number(keys.rows[0]!.n)).toBe(Number(orgs.rows[0]!.n) * 5);
    } finally {
      await handle.close();
    }
  });
});
