import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseMasterKey } from "../../crypto/envelope.js";
import { freePort } from "../../test-support/ports.js";
import { ADMIN_PASSWORD, createTestApp, createUser, type TestApp } from "../../test-support/test-app.js";
import { Fatal, waitFor } from "../../test-support/wait.js";

const serverDir = resolve(import.meta.dirname, "../../..");

/**
 * The restore screen's routes against real restic on a LOCAL repository: the target's snapshots
 * listed, one restored into a new data directory (database and master key there), a console started
 * on it with the command the route returns, and the destinations refused with a 400 naming dataDir.
 */
describe("restore from the console", { timeout: 240_000 }, () => {
  let t: TestApp;
  let manager: { authorization: string };
  let viewer: { authorization: string };
  let targetId: number;
  let snapshotId: string;
  let backupId: number;
  const scratch = mkdtempSync(join(tmpdir(), "restore-routes-"));
  let restored: ChildProcess | undefined;
  const call = (method: "GET" | "POST", url: string, payload?: object, headers = t.admin) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    t = await createTestApp("sqlite", { CHAINLAUNCH_BACKUP_LOCAL_ROOTS: tmpdir() });
    manager = await createUser(t, "rsmanager", "manager");
    viewer = await createUser(t, "rsviewer", "viewer");
    expect((await call("POST", "/backups/recovery-key", {})).statusCode).toBe(201);
    const org = await call("POST", "/organizations", { mspId: "RestoredOrgMSP", name: "Restored Org" });
    expect(org.statusCode, org.body).toBe(201);
    const target = await call("POST", "/backups/targets", {
      name: "local",
      type: "LOCAL",
      bucketPath: join(scratch, "repo"),
      resticPassword: "restore-routes-password",
    });
    expect(target.statusCode, target.body).toBe(201);
    targetId = target.json().id;
    const started = await call("POST", "/backups", { targetId });
    expect(started.statusCode, started.body).toBe(201);
    backupId = started.json().id;
    const done = await waitFor(
      "the backup",
      async () => {
        const b = (await call("GET", `/backups/${backupId}`)).json();
        return b.status === "completed" || b.status === "failed" ? b : undefined;
      },
      120_000,
    );
    expect(done.status, done.errorMessage).toBe("completed");
    snapshotId = done.snapshotId;
  }, 180_000);
  afterAll(async () => {
    restored?.kill("SIGTERM");
    await t?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("lists the target's snapshots to every reader", async () => {
    for (const who of [t.admin, manager, viewer]) {
      const res = await call("GET", `/backups/targets/${targetId}/snapshots`, undefined, who);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual([
        expect.objectContaining({
          id: snapshotId,
          shortId: snapshotId.slice(0, 8),
          hostname: "chainlaunch",
          backupId,
          tags: expect.arrayContaining(["chainlaunch", `backup:${backupId}`]),
        }),
      ]);
      expect(res.json()[0].sizeBytes).toBeGreaterThan(0);
    }
    expect((await call("GET", "/backups/targets/9999/snapshots")).statusCode).toBe(404);
  });

  it("refuses a relative path, a non-empty directory and the live data directory with a 400 naming dataDir", async () => {
    const full = join(scratch, "full");
    mkdirSync(full);
    writeFileSync(join(full, "something"), "x");
    const link = join(scratch, "link-to-live");
    symlinkSync(t.config.dataDir, link);
    const cases: Array<[string, RegExp]> = [
      ["relative/data", /^dataDir: 'relative\/data' is not an absolute path/],
      [full, /^dataDir: .* is not empty/],
      [t.config.dataDir, /^dataDir: .* this console's data directory or inside it/],
      [join(t.config.dataDir, "restored"), /^dataDir: .* this console's data directory or inside it/],
      [join(link, "restored"), /^dataDir: .* this console's data directory or inside it/],
    ];
    for (const [dataDir, message] of cases) {
      const res = await call("POST", `/backups/targets/${targetId}/restore`, { snapshotId, dataDir });
      expect(res.statusCode, `${dataDir}: ${res.body}`).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect(existsSync(join(t.config.dataDir, "restored"))).toBe(false);
    const unknown = await call("POST", `/backups/targets/${targetId}/restore`, {
      snapshotId: "deadbeef",
      dataDir: join(scratch, "never"),
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(/^snapshotId: /);
    expect(existsSync(join(scratch, "never"))).toBe(false);
  });

  it("is admin-only: managers and viewers get 403 and nothing is written", async () => {
    const dataDir = join(scratch, "by-manager");
    for (const who of [manager, viewer]) {
      const res = await call("POST", `/backups/targets/${targetId}/restore`, { snapshotId, dataDir }, who);
      expect(res.statusCode).toBe(403);
    }
    expect(existsSync(dataDir)).toBe(false);
  });

  it("restores into a new directory that a console started with the returned command serves", async () => {
    const dataDir = join(scratch, "restored", "data");
    const progress: Array<{ userId: number | undefined; data: Record<string, unknown> }> = [];
    const unsubscribe = t.bus.subscribe((e) => {
      if (e.type === "backup.restore.progress") progress.push({ userId: e.userId, data: e.data });
    });
    const res = await call("POST", `/backups/targets/${targetId}/restore`, {
      snapshotId: snapshotId.slice(0, 8),
      dataDir,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ backupId, snapshotId, dataDir, database: "sqlite", masterKey: "file" });
    expect(body.startCommand).toBe(`CHAINLAUNCH_DATA=${dataDir} chainlaunch serve`);
    expect(body.summary).toMatch(
      new RegExp(`^restored backup ${backupId} of .*: 3 user\\(s\\), 1 organization\\(s\\)`),
    );
    expect(body.portHint).toContain(`port ${t.config.port}`);
    expect(body.log.join("\n")).toContain("checked");
    // Each step went out as it happened, to the admin who asked only.
    unsubscribe();
    expect(progress.map((p) => p.data.line)).toEqual(body.log);
    const users = (await call("GET", "/users")).json() as Array<{ id: number; username: string }>;
    const adminId = users.find((u) => u.username === "admin")?.id;
    expect(new Set(progress.map((p) => p.userId))).toEqual(new Set([adminId]));
    expect(progress[0]?.data).toMatchObject({ target_id: targetId, data_dir: dataDir });

    // The database and the master key (this console's, which the backup was made with) are there.
    const master = readFileSync(join(t.config.dataDir, "master.key"), "utf8");
    expect(parseMasterKey(readFileSync(join(dataDir, "master.key"), "utf8"))).toEqual(parseMasterKey(master));
    const db = new SQLite(join(dataDir, "chainlaunch.db"), { readonly: true });
    try {
      expect(db.prepare("SELECT msp_id FROM fabric_organizations").all()).toEqual([{ msp_id: "RestoredOrgMSP" }]);
    } finally {
      db.close();
    }

    // Audited, with the destination and no secret.
    const audit = (await call("GET", "/audit/logs?event_type=backup.restore&page_size=10")).json();
    expect(audit.items[0]).toMatchObject({ eventOutcome: "SUCCESS", affectedResource: `backup-target:${targetId}` });
    expect(JSON.stringify(audit.items[0])).toContain(dataDir);

    // A second restore into the now full directory is refused.
    const again = await call("POST", `/backups/targets/${targetId}/restore`, { snapshotId, dataDir });
    expect(again.statusCode).toBe(400);

    // The returned command, run as given (its environment assignments, then `chainlaunch serve`).
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of ["DATABASE_URL", "CHAINLAUNCH_MASTER_KEY", "CHAINLAUNCH_ADMIN_PASSWORD"]) delete env[name];
    const words = (body.startCommand as string).split(" ");
    expect(words.slice(-2)).toEqual(["chainlaunch", "serve"]);
    for (const w of words.slice(0, -2)) {
      const [k, v] = w.split("=") as [string, string];
      env[k] = v;
    }
    const port = await freePort();
    restored = spawn(process.execPath, ["--import", "tsx", "src/main.ts", "serve"], {
      cwd: serverDir,
      env: { ...env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn", CHAINLAUNCH_FABRIC_DOWNLOAD: "0" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    restored.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
    const auth = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString("base64")}`;
    const orgs = await waitFor(
      "the restored console",
      async () => {
        if (restored?.exitCode !== null) throw new Fatal(`serve exited: ${stderr}`);
        const r = await fetch(`http://127.0.0.1:${port}/api/v1/organizations`, { headers: { authorization: auth } });
        return r.ok ? ((await r.json()) as { items: Array<{ mspId: string }> }) : undefined;
      },
      90_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${stderr}`);
    });
    expect(orgs.items.map((o) => o.mspId)).toEqual(["RestoredOrgMSP"]);
  });
});
