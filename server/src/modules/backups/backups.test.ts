import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { buildApp } from "../../app.js";
import { startMoto, type Moto } from "../../test-support/moto.js";
import { restoreBackup } from "./restore.js";
import { freePort } from "../../test-support/ports.js";
import { createTestApp, createUser, dialects, type TestApp } from "../../test-support/test-app.js";
import { Fatal, waitFor } from "../../test-support/wait.js";

const wait = <T>(fn: () => Promise<T | undefined>, o: { timeoutMs: number; what: string }): Promise<T> =>
  waitFor(o.what, fn, o.timeoutMs);

/**
 * Backups through the API on both databases, against real restic and a real S3 (moto_server):
 * targets with masked secrets, real connection checks with named errors that change nothing,
 * backups that complete with a restic snapshot, restore drills that pass on a good repository and
 * fail on a corrupted one, schedules (cron validation, retention, a missed run caught up once), and
 * who may do what.
 */
// Each test drives real restic against moto and waits for a run with its own named deadline (up to
// 180 s for a drill); the suite's timeout sits above those so the named wait is what fails.
describe.each(dialects())("backups on %s", { timeout: 240_000 }, (dialect) => {
  let t: TestApp;
  let moto: Moto;
  let viewer: { authorization: string };
  let manager: { authorization: string };
  let recoveryKey: string;
  const bucket = `bk-${dialect}`;
  const call = (
    method: "GET" | "POST" | "PUT" | "DELETE",
    url: string,
    payload?: object,
    headers: { authorization: string } = t.admin,
  ) => t.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });

  const s3Target = (name: string, extra: object = {}) => ({
    name,
    type: "S3",
    endpoint: moto.endpoint,
    region: "us-east-1",
    bucketName: bucket,
    bucketPath: `repos/${name}`,
    accessKeyId: "AKIDEXAMPLE",
    secretKey: "secret-key-value",
    resticPassword: "restic-password-1",
    forcePathStyle: true,
    ...extra,
  });

  const restic = (repo: string, args: string[], password = "restic-password-1") =>
    execFileSync("restic", ["-r", repo, "-o", "s3.bucket-lookup=path", ...args], {
      env: {
        ...process.env,
        RESTIC_PASSWORD: password,
        AWS_ACCESS_KEY_ID: "AKIDEXAMPLE",
        AWS_SECRET_ACCESS_KEY: "secret-key-value",
        AWS_DEFAULT_REGION: "us-east-1",
      },
      encoding: "utf8",
    });

  async function finished(id: number) {
    return wait(
      async () => {
        const b = (await call("GET", `/backups/${id}`)).json();
        return b.status === "completed" || b.status === "failed" ? b : undefined;
      },
      { timeoutMs: 120_000, what: `backup ${id} to finish` },
    );
  }

  beforeAll(async () => {
    moto = await startMoto();
    await moto.createBucket(bucket);
    // LOCAL targets may live under the system temp folder (the LOCAL test's repository).
    t = await createTestApp(dialect, { CHAINLAUNCH_BACKUP_LOCAL_ROOTS: tmpdir() });
    viewer = await createUser(t, "bkviewer", "viewer");
    manager = await createUser(t, "bkmanager", "manager");
    const key = await call("POST", "/backups/recovery-key", {});
    if (key.statusCode !== 201) throw new Error(`recovery key: ${key.statusCode} ${key.body}`);
    recoveryKey = key.json().recoveryKey;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    moto?.stop();
  });

  let targetId: number;

  it("creates an S3 target after opening its repository for real, and never returns its secrets", async () => {
    const res = await call("POST", "/backups/targets", s3Target("main"));
    expect(res.statusCode, res.body).toBe(201);
    const target = res.json();
    targetId = target.id;
    expect(target).toMatchObject({
      name: "main",
      type: "S3",
      bucketName: bucket,
      bucketPath: "repos/main",
      accessKeyId: "AKIDEXAMPLE",
      secretKey: "********",
      resticPassword: "********",
      forcePathStyle: true,
    });
    expect(res.body).not.toContain("secret-key-value");
    expect(res.body).not.toContain("restic-password-1");
    // The repository exists in the bucket (restic init ran).
    expect(await moto.list(bucket, "repos/main/config")).toEqual(["repos/main/config"]);
    // Stored as envelopes, not in clear.
    const row = await t.database.db
      .selectFrom("backup_targets")
      .selectAll()
      .where("id", "=", targetId)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain("secret-key-value");
    expect(JSON.stringify(row)).not.toContain("restic-password-1");
    const audit = (await call("GET", "/audit/logs?page_size=100")).body;
    expect(audit).toContain("backup_target.create");
    expect(audit).not.toContain("secret-key-value");
    expect(audit).not.toContain("restic-password-1");
    for (const url of ["/backups/targets", `/backups/targets/${targetId}`]) {
      const body = (await call("GET", url, undefined, viewer)).body;
      expect(body).toContain("********");
      expect(body).not.toContain("secret-key-value");
    }
  });

  it("keeps the stored secrets on a PUT without them", async () => {
    const res = await call("PUT", `/backups/targets/${targetId}`, {
      ...s3Target("main-renamed"),
      bucketPath: "repos/main",
      secretKey: undefined,
      resticPassword: undefined,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name: "main-renamed", secretKey: "********" });
    // Still opens with the old password: the repository check passed with the kept secret.
    const test = await call("POST", "/backups/targets/test", {
      ...s3Target("x"),
      bucketPath: "repos/main",
      id: targetId,
      resticPassword: undefined,
    });
    expect(test.statusCode, test.body).toBe(200);
    expect(test.json()).toMatchObject({ ok: true, repository: "exists" });
  });

  it("refuses a wrong repository password with a named 400 and changes nothing", async () => {
    const before = (await call("GET", `/backups/targets/${targetId}`)).json();
    const put = await call("PUT", `/backups/targets/${targetId}`, {
      ...s3Target("main-renamed"),
      bucketPath: "repos/main",
      resticPassword: "not-the-password",
    });
    expect(put.statusCode, put.body).toBe(400);
    expect(put.json().message).toMatch(/^resticPassword: /);
    expect((await call("GET", `/backups/targets/${targetId}`)).json()).toEqual(before);
    const post = await call("POST", "/backups/targets", {
      ...s3Target("second"),
      bucketPath: "repos/main",
      resticPassword: "wrong-password",
    });
    expect(post.statusCode, post.body).toBe(400);
    expect(post.json().message).toMatch(/^resticPassword: /);
    expect((await call("GET", "/backups/targets")).json()).toHaveLength(1);
  });

  it("answers an unreachable endpoint with 502 and an s3.connection.issue notification, creating nothing", async () => {
    const deadPort = await freePort();
    const res = await call("POST", "/backups/targets", {
      ...s3Target("dead"),
      endpoint: `http://127.0.0.1:${deadPort}`,
    });
    expect(res.statusCode, res.body).toBe(502);
    expect(res.json().message).toMatch(/^endpoint: .*unreachable/);
    expect((await call("GET", "/backups/targets")).json()).toHaveLength(1);
    const notes = await wait(
      async () => {
        const list = (await call("GET", "/user-notifications?limit=50")).json().notifications as Array<{
          event_type: string;
          event_data: Record<string, unknown>;
        }>;
        return list.find((n) => n.event_type === "s3.connection.issue");
      },
      { timeoutMs: 10_000, what: "the s3.connection.issue notification" },
    );
    expect(notes.event_data).toMatchObject({ bucket, endpoint: `http://127.0.0.1:${deadPort}` });
  });

  it("answers S3 credentials the endpoint refuses with a 400 naming secretKey, creating nothing", async () => {
    // A moto that checks signatures after its first request (the bucket's creation).
    const strict = await startMoto({ enforceAuth: true, freeActions: 1 });
    try {
      await strict.createBucket("strict-bucket");
      const before = (await call("GET", "/backups/targets")).json();
      const res = await call("POST", "/backups/targets", {
        ...s3Target("strict"),
        endpoint: strict.endpoint,
        bucketName: "strict-bucket",
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toMatch(/^secretKey: the S3 credentials were refused/);
      expect((await call("GET", "/backups/targets")).json()).toEqual(before);
    } finally {
      strict.stop();
    }
  });

  it("names the missing and malformed fields of a target", async () => {
    const cases: Array<[object, RegExp]> = [
      [{ ...s3Target("a"), bucketName: undefined }, /^bucketName: /],
      [{ ...s3Target("a"), bucketName: "Bad_Bucket" }, /^bucketName: /],
      [{ ...s3Target("a"), secretKey: undefined }, /^secretKey: /],
      [{ ...s3Target("a"), accessKeyId: undefined }, /^accessKeyId: /],
      [{ ...s3Target("a"), endpoint: "http://host/with/path" }, /^endpoint: /],
      [{ ...s3Target("a"), type: "FTP" }, /body\.type/],
      [{ ...s3Target("a"), resticPassword: "short" }, /body\.resticPassword/],
      [{ name: "local", type: "LOCAL", bucketPath: "relative/dir" }, /^bucketPath: /],
    ];
    for (const [body, message] of cases) {
      const res = await call("POST", "/backups/targets", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect((await call("POST", "/backups/targets", s3Target("main-renamed"))).statusCode).toBe(409);
    expect((await call("GET", "/backups/targets")).json()).toHaveLength(1);
  });

  let backupId: number;
  it("backs up the console to S3: pending, then completed with a restic snapshot, size and duration", async () => {
    const events: Array<{ type: string; data: Record<string, unknown> }> = [];
    const off = t.bus.subscribe((e) => void events.push({ type: e.type, data: e.data }));
    // The managed Prometheus's storage and pid record stay out of snapshots; its config goes in.
    for (const [dir, file] of [
      ["prometheus/data/wal", "00000000"],
      ["prometheus/runtime/pids", "prometheus.json"],
      ["prometheus", "prometheus.yml"],
      ["plugins/.runtime/pids", "plugin.gw.gateway.json"],
      ["plugins/gw", "run.json"],
    ] as const) {
      mkdirSync(join(t.config.dataDir, dir), { recursive: true });
      writeFileSync(join(t.config.dataDir, dir, file), "x");
    }
    const res = await call("POST", "/backups", { targetId, metadata: { reason: "test" } }, manager);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      status: "pending",
      targetId,
      metadata: { reason: "test" },
      createdBy: "bkmanager",
    });
    backupId = res.json().id;
    const done = await finished(backupId);
    // The run's last events follow the update of its row: wait for them before reading them.
    await wait(
      async () =>
        events.some((e) => e.type === "backup.success") &&
        events.filter((e) => e.type === "backup.progress").at(-1)?.data.status === "completed"
          ? true
          : undefined,
      { timeoutMs: 10_000, what: "the completed backup's events" },
    );
    off();
    expect(done.status, done.errorMessage).toBe("completed");
    expect(done.snapshotId).toMatch(/^[0-9a-f]{64}$/);
    expect(done.sizeBytes).toBeGreaterThan(0);
    expect(done.durationMs).toBeGreaterThan(0);
    const progress = events.filter((e) => e.type === "backup.progress").map((e) => e.data.status);
    expect(progress[0]).toBe("running");
    expect(progress.at(-1)).toBe("completed");
    expect(events.find((e) => e.type === "backup.success")?.data).toMatchObject({
      target_name: "main-renamed",
      size: done.sizeBytes,
    });
    // The snapshot is in the repository, with the database, the wrapped master key (never master.key) and the manifest.
    const repo = `s3:${moto.endpoint}/${bucket}/repos/main`;
    const files = restic(repo, ["ls", done.snapshotId]);
    expect(files).toContain("/chainlaunch-backup.json");
    expect(files).toContain(dialect === "sqlite" ? "/database/chainlaunch.db" : "/database/postgres.sql");
    expect(files).toContain("/master-key.wrapped.json");
    expect(files).not.toContain("/data/master.key");
    expect(files).not.toContain("/data/chainlaunch.db");
    expect(files).toContain("/data/prometheus/prometheus.yml");
    expect(files).not.toContain("/data/prometheus/data");
    expect(files).not.toContain("/data/prometheus/runtime/pids");
    expect(files).not.toContain("/data/plugins/.runtime/pids");
    expect(files).toContain("/data/plugins/gw/run.json");
    const list = (await call("GET", "/backups", undefined, viewer)).json();
    expect(list[0]).toMatchObject({ id: backupId, status: "completed" });
  });

  it("restores the snapshot into an empty data directory (and an empty PostgreSQL database) that boots with the same data", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "restore-")), "data");
    let databaseUrl: string | undefined;
    if (dialect === "postgres") {
      const admin = inject("pgAdminUrl");
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      await client.query(`CREATE DATABASE restored_${process.pid}`);
      await client.end();
      databaseUrl = admin.replace(/\/[^/]*$/, `/restored_${process.pid}`);
    }
    const opts = {
      target: `s3:${moto.endpoint}/${bucket}/repos/main`,
      snapshot: "latest",
      dataDir: dir,
      password: "restic-password-1",
      accessKeyId: "AKIDEXAMPLE",
      secretKey: "secret-key-value",
      pathStyle: true,
      databaseUrl,
      recoveryKey,
    };
    // The wrong database kind is refused before anything is written.
    await expect(
      restoreBackup({ ...opts, databaseUrl: dialect === "postgres" ? undefined : "postgres://x@127.0.0.1/y" }),
    ).rejects.toThrow(dialect === "postgres" ? /DATABASE_URL to an empty database/ : /unset DATABASE_URL/);
    const result = await restoreBackup(opts);
    expect(result.manifest.backupId).toBe(backupId);
    expect(result.counts.users).toBe(3);
    // A master key that is not the backup's is refused.
    await expect(
      restoreBackup({ ...opts, dataDir: `${dir}-2`, masterKey: Buffer.alloc(32, 7).toString("base64") }),
    ).rejects.toThrow(/but the backup needs the key with fingerprint/);
    const restored = await buildApp({ ...t.config, dataDir: dir, databaseUrl });
    try {
      const users = await restored.app.inject({ method: "GET", url: "/api/v1/users", headers: t.admin });
      expect(users.statusCode, users.body).toBe(200);
      expect((users.json() as Array<{ username: string }>).map((u) => u.username).sort()).toEqual([
        "admin",
        "bkmanager",
        "bkviewer",
      ]);
      // The target's secrets decrypt with the restored master key: the restored console opens the repository.
      const test = await restored.app.inject({
        method: "POST",
        url: "/api/v1/backups/targets/test",
        headers: t.admin,
        payload: {
          ...s3Target("x"),
          bucketPath: "repos/main",
          secretKey: undefined,
          resticPassword: undefined,
          id: targetId,
        },
      });
      expect(test.json()).toMatchObject({ ok: true, repository: "exists" });
      const b = await restored.app.inject({ method: "GET", url: `/api/v1/backups/${backupId}`, headers: t.admin });
      expect(b.json().status).toBe("completed");
      // The row was "running" in the snapshot: the restore fills it in from the repository.
      const original = (await call("GET", `/backups/${backupId}`)).json();
      expect(b.json().snapshotId).toBe(original.snapshotId);
      expect(b.json().sizeBytes).toBeGreaterThan(0);
      expect(Math.abs(b.json().sizeBytes - original.sizeBytes)).toBeLessThan(original.sizeBytes * 0.05);
      expect(b.json().durationMs).toBeGreaterThanOrEqual(0);
      expect(b.json().durationMs).toBeLessThanOrEqual(original.durationMs);
    } finally {
      await restored.close();
      rmSync(join(dir, ".."), { recursive: true, force: true });
    }
  });

  it("verifies a good backup with a restore drill", async () => {
    const res = await call("POST", `/backups/${backupId}/verify`);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().verificationStatus).toBe("running");
    const b = await wait(
      async () => {
        const x = (await call("GET", `/backups/${backupId}`)).json();
        return x.verificationStatus !== "running" ? x : undefined;
      },
      { timeoutMs: 120_000, what: "the drill" },
    );
    expect(b.verificationStatus, b.verificationError).toBe("verified");
    expect(b.verifiedAt).toBeTruthy();
  });

  it("validates cron expressions: a preview with the next times, valid=false with the parser's message", async () => {
    const ok = await call("POST", "/backups/cron/preview", { cronExpression: "0 */6 * * *", count: 3 }, viewer);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().valid).toBe(true);
    expect(ok.json().nextExecutions).toHaveLength(3);
    const times = (ok.json().nextExecutions as string[]).map((s) => Date.parse(s));
    expect(times[1]! - times[0]!).toBe(6 * 3600_000);
    const bad = await call("POST", "/backups/cron/preview", { cronExpression: "61 * * * *" });
    expect(bad.statusCode).toBe(200);
    expect(bad.json()).toMatchObject({ valid: false, nextExecutions: [] });
    expect(bad.json().error).toMatch(/minute/i);
    const sched = await call("POST", "/backups/schedules", {
      name: "bad",
      cronExpression: "not a cron",
      targetId,
      retentionDays: 7,
    });
    expect(sched.statusCode).toBe(400);
    expect(sched.json().message).toMatch(/^cronExpression: /);
    expect((await call("GET", "/backups/schedules")).json()).toHaveLength(0);
    const noTarget = await call("POST", "/backups/schedules", {
      name: "x",
      cronExpression: "0 0 * * *",
      targetId: 99999,
      retentionDays: 7,
    });
    expect(noTarget.statusCode).toBe(400);
    expect(noTarget.json().message).toMatch(/^targetId: /);
  });

  it("manages schedules: create, enable/disable, and a target they use can't be deleted", async () => {
    const res = await call("POST", "/backups/schedules", {
      name: "nightly",
      description: "at midnight",
      cronExpression: "0 0 * * *",
      targetId,
      retentionDays: 30,
    });
    expect(res.statusCode, res.body).toBe(201);
    const s = res.json();
    expect(s).toMatchObject({ name: "nightly", enabled: true, retentionDays: 30, lastRunAt: "0001-01-01T00:00:00Z" });
    expect(Date.parse(s.nextRunAt)).toBeGreaterThan(Date.now());
    expect((await call("PUT", `/backups/schedules/${s.id}/disable`)).json()).toMatchObject({
      enabled: false,
      nextRunAt: "0001-01-01T00:00:00Z",
    });
    expect((await call("PUT", `/backups/schedules/${s.id}/enable`)).json()).toMatchObject({ enabled: true });
    const del = await call("DELETE", `/backups/targets/${targetId}`);
    expect(del.statusCode).toBe(409);
    expect(del.json().message).toContain("'nightly'");
    expect((await call("GET", `/backups/targets/${targetId}`)).statusCode).toBe(200);
    expect((await call("DELETE", `/backups/schedules/${s.id}`)).statusCode).toBe(204);
  });

  it("prunes a schedule's snapshots older than its retention", async () => {
    const s = (
      await call("POST", "/backups/schedules", {
        name: "keep2",
        cronExpression: "0 3 * * *",
        targetId,
        retentionDays: 2,
      })
    ).json();
    // An old snapshot of this schedule, as a run ten days ago would have left it.
    const old = mkdtempSync(join(tmpdir(), "old-backup-"));
    writeFileSync(join(old, "chainlaunch-backup.json"), "{}");
    const repo = `s3:${moto.endpoint}/${bucket}/repos/main`;
    execFileSync(
      "restic",
      [
        "-r",
        repo,
        "-o",
        "s3.bucket-lookup=path",
        "backup",
        "--host",
        "chainlaunch",
        "--tag",
        "chainlaunch",
        "--tag",
        `schedule:${s.id}`,
        "--time",
        new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 19).replace("T", " "),
        ".",
      ],
      {
        cwd: old,
        env: {
          ...process.env,
          RESTIC_PASSWORD: "restic-password-1",
          AWS_ACCESS_KEY_ID: "x",
          AWS_SECRET_ACCESS_KEY: "y",
          AWS_DEFAULT_REGION: "us-east-1",
        },
      },
    );
    rmSync(old, { recursive: true, force: true });
    const tagged = () => JSON.parse(restic(repo, ["snapshots", "--json", "--tag", `schedule:${s.id}`])) as unknown[];
    expect(tagged()).toHaveLength(1);
    const run = (await call("POST", "/backups", { targetId, scheduleId: s.id })).json();
    expect((await finished(run.id)).status).toBe("completed");
    // Retention runs after the backup: the old snapshot goes, the new one stays.
    await wait(async () => (tagged().length === 1 ? true : undefined), { timeoutMs: 60_000, what: "the prune" });
    const [kept] = tagged() as Array<{ id: string }>;
    expect(kept?.id).toBe((await call("GET", `/backups/${run.id}`)).json().snapshotId);
    await call("DELETE", `/backups/schedules/${s.id}`);
  });

  it("catches up a run missed while the console was down, once", async () => {
    const s = (
      await call("POST", "/backups/schedules", {
        name: "missed",
        cronExpression: "*/5 * * * *",
        targetId,
        retentionDays: 30,
      })
    ).json();
    // The console was down for three of its times.
    await t.database.db
      .updateTable("backup_schedules")
      .set({ next_run_at: new Date(Date.now() - 16 * 60_000).toISOString() })
      .where("id", "=", s.id)
      .execute();
    await t.restart();
    const runs = await wait(
      async () => {
        const list = (
          (await call("GET", "/backups")).json() as Array<{ scheduleId: number | null; status: string }>
        ).filter((b) => b.scheduleId === s.id);
        if (list.some((b) => b.status === "failed")) throw new Fatal(JSON.stringify(list));
        return list.length && list.every((b) => b.status === "completed") ? list : undefined;
      },
      { timeoutMs: 120_000, what: "the caught-up run" },
    );
    expect(runs).toHaveLength(1);
    const after = (await call("GET", `/backups/schedules/${s.id}`)).json();
    expect(Date.parse(after.lastRunAt)).toBeGreaterThan(Date.now() - 120_000);
    expect(Date.parse(after.nextRunAt)).toBeGreaterThan(Date.now());
    await call("DELETE", `/backups/schedules/${s.id}`);
  });

  it("marks a backup whose repository was corrupted on purpose as failed", async () => {
    const packs = await moto.list(bucket, "repos/main/data/");
    expect(packs.length).toBeGreaterThan(0);
    for (const key of packs) await moto.put(bucket, key, Buffer.from("corrupted on purpose"));
    await call("POST", `/backups/${backupId}/verify`);
    const b = await wait(
      async () => {
        const x = (await call("GET", `/backups/${backupId}`)).json();
        return x.verificationStatus !== "running" ? x : undefined;
      },
      { timeoutMs: 180_000, what: "the drill" },
    );
    expect(b.verificationStatus).toBe("failed");
    expect(b.verificationError).toBeTruthy();
  }, 240_000);

  it("lets viewers read but not run or configure backups", async () => {
    expect((await call("GET", "/backups", undefined, viewer)).statusCode).toBe(200);
    expect((await call("GET", "/backups/schedules", undefined, viewer)).statusCode).toBe(200);
    expect((await call("POST", "/backups", { targetId }, viewer)).statusCode).toBe(403);
    expect((await call("POST", "/backups/targets", s3Target("v"), viewer)).statusCode).toBe(403);
    expect((await call("DELETE", `/backups/targets/${targetId}`, undefined, viewer)).statusCode).toBe(403);
    expect((await call("POST", `/backups/${backupId}/verify`, undefined, viewer)).statusCode).toBe(403);
  });

  it("creates a LOCAL target in a directory", async () => {
    const dir = mkdtempSync(join(tmpdir(), "local-repo-"));
    rmSync(dir, { recursive: true });
    const res = await call("POST", "/backups/targets", {
      name: "local",
      type: "LOCAL",
      bucketPath: dir,
      resticPassword: "local-password",
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(readdirSync(dir)).toContain("config");
    const run = (await call("POST", "/backups", { targetId: res.json().id })).json();
    expect((await finished(run.id)).status).toBe("completed");
    rmSync(dir, { recursive: true, force: true });
  });
});
