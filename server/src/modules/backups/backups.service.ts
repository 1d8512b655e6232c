import { randomBytes } from "node:crypto";
import { mkdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyBaseLogger } from "fastify";
import { decryptEnvelopeToString, encryptEnvelope } from "../../crypto/envelope.js";
import { nowIso } from "../../db/db.js";
import { isUniqueViolation } from "../../db/unique-violation.js";
import type { EventBus } from "../../events/bus.js";
import { ConflictError, InputError, NotFoundError, UpstreamError, errorMessage } from "../../http/errors.js";
import type { BackupRow, BackupsRepo, ScheduleRow, TargetRow } from "./backups.repo.js";
import {
  MASKED,
  type BackupResponse,
  type CreateScheduleBody,
  type CreateTargetBody,
  type ScheduleResponse,
  type TargetResponse,
} from "./backups.schema.js";
import { checkCron, nextRun, nextRuns, parseCron } from "./cron.js";
import {
  openOrInit,
  ResticError,
  resticRepo,
  runRestic,
  toHttpError,
  validateTargetAccess,
  type ResticRepo,
  type TargetAccess,
} from "./restic.js";
import {
  compareWithManifest,
  MANIFEST_FILE,
  resumeFrozen,
  sha256File,
  writeSnapshot,
  type BackupManifest,
  type NodePoint,
  type SnapshotSources,
} from "./snapshot.js";

export interface BackupsDeps {
  repo: BackupsRepo;
  bus: EventBus;
  log: FastifyBaseLogger;
  dataDir: string;
  database: SnapshotSources["database"];
  masterKey: () => { key: Buffer; fromEnv: boolean };
  nodes: () => Promise<NodePoint[]>;
  /** How long a target check may take before the endpoint counts as unreachable. */
  checkTimeoutMs?: number;
}

const AAD = { secret: "backup-target.secretKey", password: "backup-target.resticPassword" };

/**
 * Backup targets (restic repositories on S3 or a local directory), backups (consistent snapshots of
 * the database, the data directory and node ledgers) and their restore drills. One backup or drill
 * runs at a time: they pause nodes and lock the repository.
 */
export function createBackupsService(deps: BackupsDeps) {
  const { repo, bus, log } = deps;
  const workDir = join(deps.dataDir, "backups");
  const frozenFile = join(workDir, "frozen.json");
  const checkTimeoutMs = deps.checkTimeoutMs ?? 30_000;
  /** Aborts restic runs when the console closes (the run is then failed as interrupted). */
  const closing = new AbortController();
  const afterRun = new Set<(backup: BackupRow, schedule: ScheduleRow | undefined) => Promise<void>>();

  // ---- serial work queue -------------------------------------------------------------------
  let chain: Promise<unknown> = Promise.resolve();
  let queued = 0;
  function enqueue<T>(fn: () => Promise<T>): Promise<T> {
    queued++;
    const next = chain.then(fn, fn).finally(() => queued--);
    chain = next.catch(() => undefined);
    return next;
  }

  // ---- secrets -------------------------------------------------------------------------------
  const seal = (value: string, aad: string): string => encryptEnvelope(deps.masterKey().key, value, aad);
  const open = (envelope: string, aad: string): string => decryptEnvelopeToString(deps.masterKey().key, envelope, aad);

  function accessOf(t: TargetRow): TargetAccess {
    return {
      type: t.type === "LOCAL" ? "LOCAL" : "S3",
      endpoint: t.endpoint,
      region: t.region,
      bucketName: t.bucket_name,
      bucketPath: t.bucket_path,
      accessKeyId: t.access_key_id,
      secretKey: t.secret_key_enc ? open(t.secret_key_enc, AAD.secret) : null,
      resticPassword: open(t.restic_password_enc, AAD.password),
      forcePathStyle: t.force_path_style === 1,
    };
  }

  function toTarget(t: TargetRow): TargetResponse {
    return {
      id: t.id,
      name: t.name,
      type: t.type === "LOCAL" ? "LOCAL" : "S3",
      endpoint: t.endpoint ?? "",
      region: t.region ?? "",
      bucketName: t.bucket_name ?? "",
      bucketPath: t.bucket_path,
      accessKeyId: t.access_key_id ?? "",
      secretKey: t.secret_key_enc ? MASKED : "",
      resticPassword: MASKED,
      forcePathStyle: t.force_path_style === 1,
      createdAt: t.created_at,
      updatedAt: t.updated_at,
    };
  }

  function toBackup(b: BackupRow): BackupResponse {
    let metadata: unknown = null;
    try {
      metadata = JSON.parse(b.metadata);
    } catch {
      metadata = null;
    }
    return {
      id: b.id,
      targetId: b.target_id,
      targetName: b.target_name,
      scheduleId: b.schedule_id,
      status: b.status as BackupResponse["status"],
      metadata,
      sizeBytes: b.size_bytes === null ? null : Number(b.size_bytes),
      durationMs: b.duration_ms,
      snapshotId: b.snapshot_id,
      errorMessage: b.error_message,
      verificationStatus: b.verification_status as BackupResponse["verificationStatus"],
      verificationError: b.verification_error,
      verifiedAt: b.verified_at,
      createdBy: b.created_by,
      startedAt: b.started_at,
      completedAt: b.completed_at,
      createdAt: b.created_at,
    };
  }

  function toSchedule(s: ScheduleRow): ScheduleResponse {
    return {
      id: s.id,
      name: s.name,
      description: s.description,
      cronExpression: s.cron_expression,
      targetId: s.target_id,
      retentionDays: s.retention_days,
      enabled: s.enabled === 1,
      lastRunAt: s.last_run_at,
      nextRunAt: s.enabled === 1 ? s.next_run_at : null,
      createdAt: s.created_at,
      updatedAt: s.updated_at,
    };
  }

  async function mustTarget(id: number, field?: string): Promise<TargetRow> {
    const t = await repo.targets.byId(id);
    if (!t) {
      if (field) throw new InputError(`${field}: backup target ${id} not found`);
      throw new NotFoundError(`backup target ${id} not found`);
    }
    return t;
  }
  async function mustBackup(id: number): Promise<BackupRow> {
    const b = await repo.backups.byId(id);
    if (!b) throw new NotFoundError(`backup ${id} not found`);
    return b;
  }
  async function mustSchedule(id: number): Promise<ScheduleRow> {
    const s = await repo.schedules.byId(id);
    if (!s) throw new NotFoundError(`backup schedule ${id} not found`);
    return s;
  }

  /** Tells the operator (notification) when an S3 endpoint can't be reached. */
  function reportConnection(err: unknown, r: ResticRepo): void {
    if (r.describe.type !== "S3") return;
    const unreachable =
      (err instanceof ResticError && err.kind === "unreachable") ||
      (err instanceof UpstreamError && (err.details as { kind?: string } | undefined)?.kind === "unreachable");
    if (!unreachable) return;
    bus.publish("s3.connection.issue", {
      bucket: r.describe.bucket,
      endpoint: r.describe.endpoint,
      reason: errorMessage(err),
    });
  }

  /** Opens (or initialises) a target's repository for real; errors name the field to fix. */
  async function checkTarget(access: TargetAccess): Promise<"opened" | "initialised"> {
    const r = resticRepo(access);
    try {
      return await openOrInit(r, checkTimeoutMs);
    } catch (err) {
      reportConnection(err, r);
      throw err;
    }
  }

  function accessFromBody(body: CreateTargetBody, current?: TargetAccess): TargetAccess {
    const access: TargetAccess = {
      type: body.type,
      endpoint: body.type === "S3" ? body.endpoint || null : null,
      region: body.type === "S3" ? body.region || null : null,
      bucketName: body.type === "S3" ? body.bucketName || null : null,
      bucketPath: body.bucketPath ?? "",
      accessKeyId: body.type === "S3" ? body.accessKeyId || null : null,
      secretKey: body.type === "S3" ? body.secretKey || current?.secretKey || null : null,
      resticPassword: body.resticPassword || current?.resticPassword || randomBytes(24).toString("base64url"),
      forcePathStyle: body.type === "S3" ? (body.forcePathStyle ?? false) : false,
    };
    if (body.type === "LOCAL" && !access.bucketPath)
      throw new InputError("bucketPath: a LOCAL target needs a directory");
    validateTargetAccess(access);
    return access;
  }

  function targetColumns(name: string, a: TargetAccess) {
    return {
      name,
      type: a.type,
      endpoint: a.endpoint,
      region: a.region,
      bucket_name: a.bucketName,
      bucket_path: a.bucketPath,
      access_key_id: a.accessKeyId,
      secret_key_enc: a.secretKey ? seal(a.secretKey, AAD.secret) : null,
      restic_password_enc: seal(a.resticPassword, AAD.password),
      force_path_style: a.forcePathStyle ? 1 : 0,
    };
  }

  // ---- backups -------------------------------------------------------------------------------
  function progress(b: { id: number; target_name: string }, data: Record<string, unknown>): void {
    bus.publish("backup.progress", { backup_id: b.id, target_name: b.target_name, ...data });
  }

  async function resticWithUnlock<T>(r: ResticRepo, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof ResticError) || err.kind !== "locked") throw err;
      // Only stale locks go (a process that died); a live lock makes the retry fail again.
      await runRestic(r, ["unlock"], { timeoutMs: checkTimeoutMs }).catch(() => undefined);
      return fn();
    }
  }

  async function runBackup(id: number): Promise<void> {
    const row = await repo.backups.byId(id);
    if (!row || row.status !== "pending") return;
    const started = Date.now();
    await repo.backups.update(id, { status: "running", started_at: nowIso() });
    progress(row, { status: "running", phase: "starting", percent: 0 });
    const staging = join(workDir, `staging-${id}`);
    let r: ResticRepo | undefined;
    try {
      const target = await mustTarget(row.target_id);
      r = resticRepo(accessOf(target));
      const rr = r;
      const manifest = await writeSnapshot(
        {
          dataDir: deps.dataDir,
          database: deps.database,
          masterKey: deps.masterKey(),
          nodes: deps.nodes,
          frozenFile,
        },
        staging,
        id,
        (phase) => progress(row, { status: "running", phase, percent: 0 }),
      );
      const manifestSha = await sha256File(join(staging, MANIFEST_FILE));
      await checkTarget(accessOf(target));
      progress(row, { status: "running", phase: "upload", percent: 0 });
      let summary: Record<string, unknown> | undefined;
      const tags = ["chainlaunch", `backup:${id}`, ...(row.schedule_id ? [`schedule:${row.schedule_id}`] : [])];
      await resticWithUnlock(rr, () =>
        runRestic(rr, ["backup", "--json", "--host", "chainlaunch", ...tags.flatMap((t) => ["--tag", t]), "."], {
          cwd: staging,
          signal: closing.signal,
          onJson: (msg) => {
            if (msg.message_type === "status") {
              progress(row, {
                status: "running",
                phase: "upload",
                percent: Math.round(Number(msg.percent_done ?? 0) * 100),
                bytes_done: msg.bytes_done ?? 0,
                total_bytes: msg.total_bytes ?? 0,
              });
            } else if (msg.message_type === "summary") summary = msg;
          },
        }),
      );
      if (!summary) throw new Error("restic finished without a summary");
      const snapshotId = await fullSnapshotId(rr, `backup:${id}`, String(summary.snapshot_id ?? ""));
      const size = Number(summary.total_bytes_processed ?? 0);
      await repo.backups.update(id, {
        status: "completed",
        snapshot_id: snapshotId,
        size_bytes: size,
        duration_ms: Date.now() - started,
        manifest_sha256: manifestSha,
        completed_at: nowIso(),
        error_message: null,
        metadata: mergeMetadata(row.metadata, { files: Object.keys(manifest.files).length, nodes: manifest.nodes }),
      });
      progress(row, { status: "completed", phase: "done", percent: 100, snapshot_id: snapshotId });
      bus.publish("backup.success", { target_name: row.target_name, size, backup_id: id });
      const done = await repo.backups.byId(id);
      const schedule = row.schedule_id ? await repo.schedules.byId(row.schedule_id) : undefined;
      for (const fn of afterRun) {
        if (done)
          await fn(done, schedule).catch((err: unknown) => log.warn({ err, backupId: id }, "after-backup step failed"));
      }
    } catch (err) {
      const reason = errorMessage(err);
      log.warn({ backupId: id, reason }, "backup failed");
      await repo.backups.update(id, {
        status: "failed",
        error_message: reason,
        duration_ms: Date.now() - started,
        completed_at: nowIso(),
      });
      progress(row, { status: "failed", phase: "failed", error: reason });
      bus.publish("backup.failure", { target_name: row.target_name, reason, backup_id: id });
      if (r) reportConnection(err, r);
    } finally {
      await rm(staging, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  async function fullSnapshotId(r: ResticRepo, tag: string, fallback: string): Promise<string> {
    try {
      const { stdout } = await runRestic(r, ["snapshots", "--json", "--tag", tag], { timeoutMs: checkTimeoutMs });
      const list = JSON.parse(stdout) as Array<{ id: string }>;
      return list.at(-1)?.id ?? fallback;
    } catch {
      return fallback;
    }
  }

  function mergeMetadata(current: string, extra: Record<string, unknown>): string {
    let base: unknown = null;
    try {
      base = JSON.parse(current);
    } catch {
      base = null;
    }
    if (base && typeof base === "object" && !Array.isArray(base)) return JSON.stringify({ ...base, backup: extra });
    return JSON.stringify(base === null ? { backup: extra } : { value: base, backup: extra });
  }

  /** Snapshot ids in a target's repository that carry our tag. */
  async function snapshotIds(r: ResticRepo): Promise<Set<string>> {
    const { stdout } = await runRestic(r, ["snapshots", "--json", "--tag", "chainlaunch"], { timeoutMs: 120_000 });
    return new Set((JSON.parse(stdout) as Array<{ id: string }>).map((s) => s.id));
  }

  /**
   * `restic forget --prune` for one schedule: its snapshots older than retentionDays (counted back
   * from its newest) go; the rows of backups whose snapshots are gone go with them.
   */
  async function applyRetention(schedule: ScheduleRow): Promise<number> {
    const target = await mustTarget(schedule.target_id);
    const r = resticRepo(accessOf(target));
    await resticWithUnlock(r, () =>
      runRestic(
        r,
        [
          "forget",
          "--tag",
          `schedule:${schedule.id}`,
          "--group-by",
          "",
          "--keep-within",
          `${schedule.retention_days}d`,
          "--prune",
        ],
        { timeoutMs: 30 * 60_000 },
      ),
    );
    const present = await snapshotIds(r);
    const gone = (await repo.backups.byTarget(target.id)).filter(
      (b) => b.status === "completed" && b.snapshot_id && !present.has(b.snapshot_id),
    );
    await repo.backups.deleteMany(gone.map((b) => b.id));
    if (gone.length) log.info({ scheduleId: schedule.id, pruned: gone.length }, "retention pruned backups");
    return gone.length;
  }
  afterRun.add(async (_b, schedule) => {
    if (schedule) await applyRetention(schedule);
  });

  /** Restore drill: `restic check`, restore into a scratch folder, compare with the manifest. */
  async function runDrill(id: number): Promise<void> {
    const row = await repo.backups.byId(id);
    if (!row?.snapshot_id) return;
    const scratch = join(workDir, `drill-${id}`);
    const fail = async (reason: string): Promise<void> => {
      await repo.backups.update(id, {
        verification_status: "failed",
        verification_error: reason,
        verified_at: nowIso(),
      });
      bus.publish("backup.verify", { backup_id: id, status: "failed", error: reason });
    };
    try {
      const target = await mustTarget(row.target_id);
      const r = resticRepo(accessOf(target));
      bus.publish("backup.verify", { backup_id: id, status: "running", phase: "check" });
      try {
        await resticWithUnlock(r, () => runRestic(r, ["check"], { timeoutMs: 60 * 60_000 }));
      } catch (err) {
        return await fail(`restic check: ${errorMessage(err)}`);
      }
      bus.publish("backup.verify", { backup_id: id, status: "running", phase: "restore" });
      await rm(scratch, { recursive: true, force: true });
      await mkdir(scratch, { recursive: true });
      try {
        await runRestic(r, ["restore", row.snapshot_id, "--target", scratch], {
          timeoutMs: 6 * 60 * 60_000,
          signal: closing.signal,
        });
      } catch (err) {
        return await fail(`restore: ${errorMessage(err)}`);
      }
      bus.publish("backup.verify", { backup_id: id, status: "running", phase: "compare" });
      let manifest: BackupManifest;
      try {
        const path = join(scratch, MANIFEST_FILE);
        if (row.manifest_sha256 && (await sha256File(path)) !== row.manifest_sha256) {
          return await fail("the snapshot's manifest differs from the one recorded when the backup was made");
        }
        manifest = JSON.parse(await readFile(path, "utf8")) as BackupManifest;
      } catch (err) {
        return await fail(`manifest: ${errorMessage(err)}`);
      }
      const problems = await compareWithManifest(scratch, manifest);
      if (problems.length) {
        return await fail(
          `${problems.length} file(s) differ from the manifest: ${problems.slice(0, 5).join("; ")}${problems.length > 5 ? "; …" : ""}`,
        );
      }
      await repo.backups.update(id, {
        verification_status: "verified",
        verification_error: null,
        verified_at: nowIso(),
      });
      bus.publish("backup.verify", { backup_id: id, status: "verified", files: Object.keys(manifest.files).length });
    } catch (err) {
      await fail(errorMessage(err));
    } finally {
      await rm(scratch, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  return {
    workDir,
    /** Boot: resume nodes a dead console left paused; runs it left unfinished are failed. */
    async recover(): Promise<void> {
      const resumed = await resumeFrozen(frozenFile);
      if (resumed.length) log.warn({ pids: resumed }, "resumed node processes a stopped backup had paused");
      const failed = await repo.backups.failInterrupted(nowIso());
      if (failed) log.warn({ failed }, "backups interrupted by a console stop were marked failed");
      // Work folders a stopped console left behind.
      const { readdir } = await import("node:fs/promises");
      for (const name of await readdir(workDir).catch(() => [] as string[])) {
        if (/^(staging|drill)-\d+$/.test(name)) await rm(join(workDir, name), { recursive: true, force: true });
      }
    },
    /** Resolves when the queue is empty (tests, shutdown). */
    async idle(): Promise<void> {
      while (queued > 0) await chain;
    },
    /** Console shutdown: running restic processes are stopped and their runs end (failed, interrupted). */
    async close(): Promise<void> {
      closing.abort();
      await this.idle();
    },

    // targets
    async listTargets(): Promise<TargetResponse[]> {
      return (await repo.targets.list()).map(toTarget);
    },
    async getTarget(id: number): Promise<TargetResponse> {
      return toTarget(await mustTarget(id));
    },
    async createTarget(body: CreateTargetBody): Promise<TargetResponse> {
      if ((await repo.targets.list()).some((t) => t.name === body.name)) {
        throw new ConflictError(`name: a backup target named '${body.name}' already exists`);
      }
      const access = accessFromBody(body);
      await checkTarget(access);
      const at = nowIso();
      try {
        const id = await repo.targets.insert({ ...targetColumns(body.name, access), created_at: at, updated_at: at });
        return toTarget(await mustTarget(id));
      } catch (err) {
        if (isUniqueViolation(err))
          throw new ConflictError(`name: a backup target named '${body.name}' already exists`);
        throw err;
      }
    },
    async updateTarget(id: number, body: CreateTargetBody): Promise<TargetResponse> {
      const current = await mustTarget(id);
      const other = (await repo.targets.list()).find((t) => t.name === body.name && t.id !== id);
      if (other) throw new ConflictError(`name: a backup target named '${body.name}' already exists`);
      const access = accessFromBody(body, accessOf(current));
      await checkTarget(access);
      try {
        await repo.targets.update(id, { ...targetColumns(body.name, access), updated_at: nowIso() });
      } catch (err) {
        if (isUniqueViolation(err))
          throw new ConflictError(`name: a backup target named '${body.name}' already exists`);
        throw err;
      }
      return toTarget(await mustTarget(id));
    },
    /** Checks a target's settings without saving them (and without initialising a repository). */
    async testTarget(body: CreateTargetBody & { id?: number | undefined }) {
      const current = body.id ? accessOf(await mustTarget(body.id)) : undefined;
      if (!body.resticPassword && !current) throw new InputError("resticPassword: needed to open the repository");
      const access = accessFromBody(body, current);
      const r = resticRepo(access);
      try {
        await runRestic(r, ["cat", "config"], { timeoutMs: checkTimeoutMs });
        return { ok: true, repository: "exists" as const, message: `opened the restic repository at ${r.repository}` };
      } catch (err) {
        if (err instanceof ResticError && err.kind === "no-repository") {
          return {
            ok: true,
            repository: "absent" as const,
            message: `reachable; no repository at ${r.repository} yet (saving the target initialises it)`,
          };
        }
        reportConnection(err, r);
        throw toHttpError(err, r);
      }
    },
    async deleteTarget(id: number): Promise<void> {
      const t = await mustTarget(id);
      const schedules = await repo.schedules.byTarget(id);
      if (schedules.length) {
        throw new ConflictError(
          `backup target '${t.name}' is used by schedule${schedules.length > 1 ? "s" : ""} ${schedules
            .map((s) => `'${s.name}'`)
            .join(", ")}; delete or move ${schedules.length > 1 ? "them" : "it"} first`,
        );
      }
      const active = (await repo.backups.byTarget(id)).find((b) => b.status === "pending" || b.status === "running");
      if (active) throw new ConflictError(`backup target '${t.name}' has backup ${active.id} ${active.status}`);
      await repo.targets.delete(id);
    },

    // backups
    async listBackups(): Promise<BackupResponse[]> {
      return (await repo.backups.list(1000)).map(toBackup);
    },
    async getBackup(id: number): Promise<BackupResponse> {
      return toBackup(await mustBackup(id));
    },
    /** Records a pending backup and queues it; progress goes out as `backup.progress` events. */
    async createBackup(
      body: { targetId: number; scheduleId?: number | undefined; metadata?: unknown },
      user: string | null,
    ): Promise<BackupResponse> {
      await mustTarget(body.targetId, "targetId");
      if (body.scheduleId !== undefined && !(await repo.schedules.byId(body.scheduleId))) {
        throw new InputError(`scheduleId: backup schedule ${body.scheduleId} not found`);
      }
      const id = await repo.backups.insert({
        target_id: body.targetId,
        schedule_id: body.scheduleId ?? null,
        status: "pending",
        metadata: JSON.stringify(body.metadata ?? null),
        created_by: user,
        created_at: nowIso(),
      });
      void enqueue(() => runBackup(id)).catch((err: unknown) => log.error({ err, backupId: id }, "backup run crashed"));
      return toBackup(await mustBackup(id));
    },
    async deleteBackup(id: number): Promise<void> {
      const b = await mustBackup(id);
      if (b.status === "pending" || b.status === "running" || b.verification_status === "running") {
        throw new ConflictError(`backup ${id} is ${b.status === "completed" ? "being verified" : b.status}`);
      }
      if (b.snapshot_id) {
        const target = await mustTarget(b.target_id);
        const r = resticRepo(accessOf(target));
        await enqueue(() =>
          resticWithUnlock(r, () =>
            runRestic(r, ["forget", b.snapshot_id as string, "--prune"], { timeoutMs: 30 * 60_000 }),
          ),
        ).catch((err: unknown) => {
          reportConnection(err, r);
          throw toHttpError(err, r);
        });
      }
      await repo.backups.delete(id);
    },
    /** Starts a restore drill; the backup's verificationStatus goes running → verified or failed. */
    async verify(id: number): Promise<BackupResponse> {
      const b = await mustBackup(id);
      if (b.status !== "completed" || !b.snapshot_id) {
        throw new ConflictError(`backup ${id} is ${b.status}; only a completed backup can be verified`);
      }
      if (b.verification_status === "running") throw new ConflictError(`backup ${id} is already being verified`);
      await repo.backups.update(id, { verification_status: "running", verification_error: null });
      void enqueue(() => runDrill(id)).catch((err: unknown) => log.error({ err, backupId: id }, "drill crashed"));
      return toBackup(await mustBackup(id));
    },

    // schedules
    async listSchedules(): Promise<ScheduleResponse[]> {
      return (await repo.schedules.list()).map(toSchedule);
    },
    async getSchedule(id: number): Promise<ScheduleResponse> {
      return toSchedule(await mustSchedule(id));
    },
    async createSchedule(body: CreateScheduleBody): Promise<ScheduleResponse> {
      parseCron(body.cronExpression);
      await mustTarget(body.targetId, "targetId");
      const enabled = body.enabled ?? true;
      const at = nowIso();
      try {
        const id = await repo.schedules.insert({
          name: body.name,
          description: body.description ?? "",
          cron_expression: body.cronExpression,
          target_id: body.targetId,
          retention_days: body.retentionDays,
          enabled: enabled ? 1 : 0,
          last_run_at: null,
          next_run_at: enabled ? nextRun(body.cronExpression) : null,
          created_at: at,
          updated_at: at,
        });
        return toSchedule(await mustSchedule(id));
      } catch (err) {
        if (isUniqueViolation(err))
          throw new ConflictError(`name: a backup schedule named '${body.name}' already exists`);
        throw err;
      }
    },
    async updateSchedule(id: number, body: CreateScheduleBody): Promise<ScheduleResponse> {
      const current = await mustSchedule(id);
      parseCron(body.cronExpression);
      await mustTarget(body.targetId, "targetId");
      const enabled = body.enabled ?? current.enabled === 1;
      try {
        await repo.schedules.update(id, {
          name: body.name,
          description: body.description ?? current.description,
          cron_expression: body.cronExpression,
          target_id: body.targetId,
          retention_days: body.retentionDays,
          enabled: enabled ? 1 : 0,
          next_run_at: enabled ? nextRun(body.cronExpression) : null,
          updated_at: nowIso(),
        });
      } catch (err) {
        if (isUniqueViolation(err))
          throw new ConflictError(`name: a backup schedule named '${body.name}' already exists`);
        throw err;
      }
      return toSchedule(await mustSchedule(id));
    },
    async setScheduleEnabled(id: number, enabled: boolean): Promise<ScheduleResponse> {
      const s = await mustSchedule(id);
      await repo.schedules.update(id, {
        enabled: enabled ? 1 : 0,
        next_run_at: enabled ? nextRun(s.cron_expression) : null,
        updated_at: nowIso(),
      });
      return toSchedule(await mustSchedule(id));
    },
    async deleteSchedule(id: number): Promise<void> {
      await mustSchedule(id);
      await repo.schedules.delete(id);
    },
    previewCron(expression: string, count = 5) {
      const r = checkCron(expression);
      if (!r.ok) return { valid: false, nextExecutions: [], error: r.error };
      return { valid: true, nextExecutions: nextRuns(r.cron, count) };
    },
    applyRetention,
  };
}

export type BackupsService = ReturnType<typeof createBackupsService>;
