import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseMasterKey } from "../../crypto/envelope.js";
import { startMoto, type Moto } from "../../test-support/moto.js";
import { freePort } from "../../test-support/ports.js";
import { createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";
import { Fatal, waitFor } from "../../test-support/wait.js";
import { RecoveryKeyError, unwrapMasterKey, WRAPPED_MASTER_KEY_FILE } from "./recovery-key.js";
import { restoreBackup } from "./restore.js";

const SERVER_DIR = resolve(import.meta.dirname, "../../..");

/** What a browser sends from the console itself (inject's default host is localhost:80). */
const ORIGIN = "http://localhost:80";

/** The forms a 32-byte key is written in (raw, base64, base64url, hex). */
const formsOf = (key: Buffer): Buffer[] => [
  key,
  Buffer.from(key.toString("base64")),
  Buffer.from(key.toString("base64url")),
  Buffer.from(key.toString("hex")),
  Buffer.from(key.toString("hex").toUpperCase()),
];

/** The files under dir that hold any of the forms (files over 64 MiB are not read). */
function holders(dir: string, forms: Buffer[]): string[] {
  return filesUnder(dir).filter((f) => {
    if (statSync(f).size > 64 * 1024 * 1024) return false;
    const bytes = readFileSync(f);
    return forms.some((form) => bytes.includes(form));
  });
}

/** Every regular file under a directory. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/**
 * Issue 29, backups: a manager (a session and an API key) can't create, change, test or delete a
 * backup target, make the recovery key or run a restore (drill), each refused with a 403 and a
 * `permission.denied` audit entry, with nothing created anywhere; a LOCAL target outside the allowed
 * roots is a 400 naming bucketPath; a snapshot made by real restic holds the master key in no form
 * but wrapped under the recovery key, which unwraps it; a run a dead console left running is failed
 * and notified once at the next boot.
 */
describe.each(dialects())("backups under attack (%s)", { timeout: 180_000 }, (dialect) => {
  let t: TestApp;
  let moto: Moto;
  let recoveryKey: string;
  let targetId: number;
  let backupId: number;
  const callers: Array<{ as: string; headers: Record<string, string> }> = [];
  const attacker = `attacker-${dialect}`;

  const api = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, headers: object, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: headers as Record<string, string>, payload });
  const admin = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
    api(method, url, t.admin, payload);
  const foreign = (name: string) => ({
    name,
    type: "S3",
    endpoint: moto.endpoint,
    region: "us-east-1",
    bucketName: attacker,
    bucketPath: "loot",
    accessKeyId: "AKIDATTACKER",
    secretKey: "attacker-secret",
    resticPassword: "attacker-chosen-password",
    forcePathStyle: true,
  });
  const denials = async (username: string) =>
    t.database.db
      .selectFrom("audit_logs")
      .select(["details", "event_outcome"])
      .where("event_type", "=", "permission.denied")
      .where("username", "=", username)
      .execute();

  beforeAll(async () => {
    moto = await startMoto();
    await moto.createBucket(attacker);
    t = await createTestApp(dialect);
    await createUser(t, "mallory", "manager", "mallory-secret-1");
    const login = await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { username: "mallory", password: "mallory-secret-1" },
    });
    const cookie = [login.headers["set-cookie"] ?? []].flat().find((c) => c.startsWith("session_id="));
    if (!cookie) throw new Error(`no session: ${login.statusCode} ${login.body}`);
    callers.push({ as: "manager session", headers: { cookie: cookie.split(";")[0]!, origin: ORIGIN } });
    const key = await api("POST", "/api-keys", t.basic("mallory", "mallory-secret-1"), { name: "mallory-key" });
    expect(key.statusCode, key.body).toBe(201);
    callers.push({ as: "manager API key", headers: { "x-api-key": key.json().key } });

    const made = await admin("POST", "/backups/recovery-key", {});
    expect(made.statusCode, made.body).toBe(201);
    recoveryKey = made.json().recoveryKey;
    // The admin's target, in the default root of LOCAL targets.
    const target = await admin("POST", "/backups/targets", {
      name: "admin-local",
      type: "LOCAL",
      bucketPath: join(t.config.dataDir, "backups", "local", "repo"),
      resticPassword: "admin-restic-password",
    });
    expect(target.statusCode, target.body).toBe(201);
    targetId = target.json().id;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    moto?.stop();
  });

  it("refuses target changes, the recovery key and restores to a manager, auditing each, changing nothing", async () => {
    const before = (await admin("GET", "/backups/targets")).body;
    for (const c of callers) {
      const attempts: Array<[string, "POST" | "PUT" | "DELETE", string, object?]> = [
        ["BACKUP_TARGETS", "POST", "/backups/targets", foreign(`loot-${callers.indexOf(c)}`)],
        ["BACKUP_TARGETS", "POST", "/backups/targets/test", foreign("probe")],
        ["BACKUP_TARGETS", "PUT", `/backups/targets/${targetId}`, foreign("admin-local")],
        ["BACKUP_TARGETS", "DELETE", `/backups/targets/${targetId}`],
        ["BACKUP_TARGETS", "POST", "/backups/recovery-key", { replace: true }],
        ["BACKUP_RESTORE", "POST", "/backups/1/verify"],
      ];
      for (const [required, method, url, body] of attempts) {
        const seen = (await denials("mallory")).length;
        const res = await api(method, url, c.headers, body);
        expect(res.statusCode, `${c.as} ${method} ${url}: ${res.body}`).toBe(403);
        expect(res.json()).toMatchObject({ error: "FORBIDDEN" });
        const audit = await denials("mallory");
        expect(audit.length, `${c.as} ${method} ${url} audited`).toBe(seen + 1);
        expect(JSON.parse(audit.at(-1)!.details!)).toMatchObject({ method, required, role: "manager" });
      }
    }
    // Nothing was created or changed: no target, no repository in the attacker's bucket.
    expect((await admin("GET", "/backups/targets")).body).toBe(before);
    expect(await moto.list(attacker, "")).toEqual([]);
    expect((await admin("GET", "/backups/recovery-key")).json()).toMatchObject({ configured: true });
  });

  it("lets a manager back up (and schedule) to the admin's target", async () => {
    for (const c of callers) {
      const s = await api("POST", "/backups/schedules", c.headers, {
        name: `nightly-${callers.indexOf(c)}`,
        cronExpression: "0 3 * * *",
        targetId,
        retentionDays: 7,
      });
      expect(s.statusCode, `${c.as}: ${s.body}`).toBe(201);
      expect((await admin("DELETE", `/backups/schedules/${s.json().id}`)).statusCode).toBe(204);
    }
    const run = await api("POST", "/backups", callers[1]!.headers, { targetId });
    expect(run.statusCode, run.body).toBe(201);
    backupId = run.json().id;
    const done = await waitFor(
      `backup ${backupId}`,
      async () => {
        const b = (await admin("GET", `/backups/${backupId}`)).json();
        return b.status === "completed" || b.status === "failed" ? b : undefined;
      },
      120_000,
    );
    expect(done.status, done.errorMessage).toBe("completed");
  });

  it("never sends a stored S3 secret key to a new endpoint or bucket: moving a target needs the key again", async () => {
    await moto.createBucket(`own-${dialect}`);
    const own = {
      name: "admin-s3",
      type: "S3",
      endpoint: moto.endpoint,
      region: "us-east-1",
      bucketName: `own-${dialect}`,
      bucketPath: "console",
      accessKeyId: "AKIDOWN",
      secretKey: "own-secret-key",
      resticPassword: "own-restic-password",
      forcePathStyle: true,
    };
    const created = await admin("POST", "/backups/targets", own);
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    // A listener that records every request (restic would sign them with the stored key).
    const seen: string[] = [];
    const listener = createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ""}`);
      res.statusCode = 500;
      res.end();
    });
    await new Promise<void>((r) => listener.listen(0, "127.0.0.1", () => r()));
    const elsewhere = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
    try {
      const { secretKey: _kept, ...withoutSecret } = own;
      for (const [method, url, body] of [
        ["PUT", `/backups/targets/${id}`, { ...withoutSecret, endpoint: elsewhere }],
        ["PUT", `/backups/targets/${id}`, { ...withoutSecret, bucketName: attacker }],
        ["POST", "/backups/targets/test", { ...withoutSecret, endpoint: elsewhere, id }],
      ] as const) {
        const res = await admin(method, url, body);
        expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(400);
        expect(res.json().message).toMatch(/^secretKey: the endpoint or bucket changed/);
      }
      expect(seen).toEqual([]);
      expect(await moto.list(attacker, "")).toEqual([]);
      expect((await admin("GET", `/backups/targets/${id}`)).json()).toMatchObject({
        endpoint: moto.endpoint,
        bucketName: `own-${dialect}`,
      });
      // Same place, no key: the stored one is kept (a rename).
      const renamed = await admin("PUT", `/backups/targets/${id}`, { ...withoutSecret, name: "admin-s3-renamed" });
      expect(renamed.statusCode, renamed.body).toBe(200);
    } finally {
      listener.close();
      await admin("DELETE", `/backups/targets/${id}`);
    }
  });

  it("answers a LOCAL target outside the allowed roots with a 400 naming bucketPath, audited, creating nothing", async () => {
    const outside = mkdtempSync(join(tmpdir(), "bk-outside-"));
    const root = join(t.config.dataDir, "backups", "local");
    mkdirSync(root, { recursive: true });
    symlinkSync(outside, join(root, "escape"));
    try {
      for (const path of [
        join(outside, "repo"),
        "/etc/chainlaunch-repo",
        "/proc/self",
        join(t.config.dataDir, "keys-repo"),
        t.config.dataDir,
        join(root, "escape", "repo"),
        join(root, "..", "..", "nodes"),
      ]) {
        const res = await admin("POST", "/backups/targets", {
          name: "local-outside",
          type: "LOCAL",
          bucketPath: path,
          resticPassword: "local-password",
        });
        expect(res.statusCode, `${path}: ${res.body}`).toBe(400);
        expect(res.json().message).toMatch(/^bucketPath: /);
        expect(res.json().message).toContain("CHAINLAUNCH_BACKUP_LOCAL_ROOTS");
      }
      expect(readdirSync(outside)).toEqual([]);
      const names = ((await admin("GET", "/backups/targets")).json() as Array<{ name: string }>).map((x) => x.name);
      expect(names).not.toContain("local-outside");
      // The audit hook writes after the response (onResponse): wait for the last one.
      await waitFor(
        "seven audited refusals",
        async () => {
          const failures = await t.database.db
            .selectFrom("audit_logs")
            .select("event_outcome")
            .where("event_type", "=", "backup_target.create")
            .where("event_outcome", "=", "FAILURE")
            .execute();
          return failures.length >= 7 ? true : undefined;
        },
        5_000,
      );
    } finally {
      rmSync(join(root, "escape"), { force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("keeps the master key out of the snapshot in every form but wrapped; the recovery key unwraps it", async () => {
    const keyFile = join(t.config.dataDir, "master.key");
    const fileText = readFileSync(keyFile, "utf8");
    const master = parseMasterKey(fileText);
    const forms = [...formsOf(master), Buffer.from(fileText.trim())];
    const scratch = mkdtempSync(join(tmpdir(), "bk-snapshot-"));
    try {
      const repo = join(t.config.dataDir, "backups", "local", "repo");
      execFileSync("restic", ["-r", repo, "restore", "latest", "--target", scratch], {
        env: { ...process.env, RESTIC_PASSWORD: "admin-restic-password" },
        stdio: "ignore",
      });
      const files = filesUnder(scratch);
      expect(files.length).toBeGreaterThanOrEqual(4);
      expect(files.some((f) => f.endsWith(dialect === "sqlite" ? "chainlaunch.db" : "postgres.sql"))).toBe(true);
      expect(files.map((f) => f.slice(scratch.length))).not.toContain("/data/master.key");
      // The search finds the key where it is (the console's own key file), and nowhere in the snapshot.
      expect(holders(t.config.dataDir, forms)).toContain(keyFile);
      expect(holders(scratch, forms)).toEqual([]);
      const wrapped = JSON.parse(readFileSync(join(scratch, WRAPPED_MASTER_KEY_FILE), "utf8"));
      expect(JSON.stringify(wrapped)).not.toContain(recoveryKey.slice(6));
      expect(unwrapMasterKey(wrapped, recoveryKey).equals(master)).toBe(true);
      const other = `clrk1-${Buffer.alloc(32, 9).toString("base64url")}`;
      expect(() => unwrapMasterKey(wrapped, other)).toThrow(RecoveryKeyError);
      expect(() => unwrapMasterKey(wrapped, other)).toThrow(/needs the one with fingerprint/);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it("wraps a CHAINLAUNCH_MASTER_KEY too: not in the snapshot, and the restore unwraps it into master.key", async () => {
    const envKey = Buffer.from(Array.from({ length: 32 }, (_, i) => (i * 37 + 11) & 0xff));
    const u = await createTestApp(dialect, { CHAINLAUNCH_MASTER_KEY: envKey.toString("base64") });
    const restored = mkdtempSync(join(tmpdir(), "bk-envkey-"));
    try {
      const call = (url: string, payload: object) =>
        u.app.inject({ method: "POST", url: `/api/v1${url}`, headers: u.admin, payload });
      const key = (await call("/backups/recovery-key", {})).json().recoveryKey as string;
      const repo = join(u.config.dataDir, "backups", "local", "env-repo");
      const target = await call("/backups/targets", {
        name: "env",
        type: "LOCAL",
        bucketPath: repo,
        resticPassword: "env-restic-password",
      });
      expect(target.statusCode, target.body).toBe(201);
      const run = (await call("/backups", { targetId: target.json().id })).json();
      const done = await waitFor(
        "the backup",
        async () => {
          const b = (await u.app.inject({ method: "GET", url: `/api/v1/backups/${run.id}`, headers: u.admin })).json();
          return b.status === "completed" || b.status === "failed" ? b : undefined;
        },
        120_000,
      );
      expect(done.status, done.errorMessage).toBe("completed");
      const snap = join(restored, "snapshot");
      execFileSync("restic", ["-r", repo, "restore", "latest", "--target", snap], {
        env: { ...process.env, RESTIC_PASSWORD: "env-restic-password" },
        stdio: "ignore",
      });
      expect(holders(snap, formsOf(envKey))).toEqual([]);
      // Without the recovery key the restore stops before writing anything, naming what it needs.
      const opts = {
        target: repo,
        snapshot: "latest",
        dataDir: join(restored, "data"),
        password: "env-restic-password",
        databaseUrl: dialect === "postgres" ? "postgres://unused@127.0.0.1:1/x" : undefined,
      };
      await expect(restoreBackup(opts)).rejects.toThrow(/CHAINLAUNCH_RECOVERY_KEY/);
      expect(readdirSync(restored)).toEqual(["snapshot"]);
      if (dialect === "sqlite") {
        const r = await restoreBackup({ ...opts, recoveryKey: key });
        expect(r.masterKeyWritten).toBe(true);
        expect(parseMasterKey(readFileSync(join(opts.dataDir, "master.key"), "utf8")).equals(envKey)).toBe(true);
        expect(statSync(join(opts.dataDir, "master.key")).mode & 0o777).toBe(0o600);
      }
    } finally {
      await u.close();
      rmSync(restored, { recursive: true, force: true });
    }
  });

  it("fails a run the console was killed in (SIGKILL mid-backup) at the next boot, and notifies it once", async () => {
    // A second console process on the same data directory and database, killed while it backs up.
    const big = join(t.config.dataDir, "big.bin");
    writeFileSync(big, randomBytes(256 * 1024 * 1024));
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      CHAINLAUNCH_DATA: t.config.dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      CHAINLAUNCH_FABRIC_DOWNLOAD: "0",
      CHAINLAUNCH_BESU_DOWNLOAD: "0",
    };
    delete env.DATABASE_URL;
    delete env.CHAINLAUNCH_MASTER_KEY;
    if (t.config.databaseUrl) env.DATABASE_URL = t.config.databaseUrl;
    const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts", "serve"], {
      cwd: SERVER_DIR,
      env,
      stdio: ["ignore", "ignore", "pipe"],
      detached: true,
    });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const http = async (method: string, path: string, body?: object) => {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
        method,
        headers: { authorization: t.admin.authorization, ...(body ? { "content-type": "application/json" } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return (await res.json()) as Record<string, unknown>;
    };
    let crashedId: number;
    try {
      await waitFor(
        "the second console",
        async () => {
          if (child.exitCode !== null) throw new Fatal(`serve exited ${child.exitCode}: ${stderr}`);
          return fetch(`http://127.0.0.1:${port}/api/v1/backups`, { headers: { authorization: t.admin.authorization } })
            .then((r) => (r.ok ? true : undefined))
            .catch(() => undefined);
        },
        60_000,
      );
      const started = await http("POST", "/backups", { targetId });
      crashedId = started.id as number;
      await waitFor(
        `backup ${crashedId} running`,
        async () => ((await http("GET", `/backups/${crashedId}`)).status === "running" ? true : undefined),
        30_000,
        20,
      );
    } finally {
      if (child.pid) process.kill(-child.pid, "SIGKILL");
      rmSync(big, { force: true });
    }
    await new Promise<void>((r) => (child.exitCode !== null || child.signalCode ? r() : child.once("exit", () => r())));
    expect((await admin("GET", `/backups/${crashedId}`)).json().status).toBe("running");

    const notified = async () =>
      (
        await t.database.db
          .selectFrom("user_notifications")
          .select("event_data")
          .where("event_type", "=", "backup.failure")
          .execute()
      ).filter((n) => JSON.parse(n.event_data).backup_id === crashedId);
    const users = (await t.database.db.selectFrom("users").select("id").execute()).length;
    expect(await notified()).toEqual([]);
    await t.restart();
    const b = (await admin("GET", `/backups/${crashedId}`)).json();
    expect(b.status).toBe("failed");
    expect(b.errorMessage).toMatch(/^interrupted: /);
    const once = await waitFor(
      "the failure notifications",
      async () => {
        const n = await notified();
        return n.length >= users ? n : undefined;
      },
      10_000,
    );
    expect(once).toHaveLength(users);
    expect(JSON.parse(once[0]!.event_data)).toMatchObject({
      target_name: "admin-local",
      reason: expect.stringMatching(/^interrupted/),
    });
    await t.restart();
    await new Promise((r) => setTimeout(r, 500));
    expect(await notified()).toHaveLength(users);
    // The repository the killed restic left locked takes the next backup (a stale lock is removed).
    const next = (await admin("POST", "/backups", { targetId })).json();
    const done = await waitFor(
      `backup ${next.id}`,
      async () => {
        const x = (await admin("GET", `/backups/${next.id}`)).json();
        return x.status === "completed" || x.status === "failed" ? x : undefined;
      },
      120_000,
    );
    expect(done.status, done.errorMessage).toBe("completed");
  });
});
