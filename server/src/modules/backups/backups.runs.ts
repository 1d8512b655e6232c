import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { nowIso } from "../../db/db.js";
import { ConflictError, InputError, errorMessage } from "../../http/errors.js";
import type { BackupsCore } from "./backups.core.js";
import { toBackup } from "./backups.mappers.js";
import type { BackupRow, ScheduleRow } from "./backups.repo.js";
import type { BackupResponse } from "./backups.schema.js";
import { readRecovery } from "./recovery-key.js";
import { resticRepo, runRestic, toHttpError, type ResticRepo } from "./restic.js";
import { MANIFEST_FILE, resumeFrozen, sha256File, writeSnapshot } from "./snapshot.js";

/** Said when a backup runs before an admin made the recovery key that wraps the master key. */
export const NO_RECOVERY_KEY =
  "no backup recovery key yet: an admin creates one (Settings > Backups, or POST /api/v1/backups/recovery-key); " +
  "snapshots carry the master key only wrapped under it";

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

/**
 * Backups: consistent snapshots of the database, the data directory and node ledgers uploaded with
 * restic, the retention of scheduled ones, and the boot step that fails (and reports) runs a dead
 * console left unfinished.
 */
export function createBackupRuns(core: BackupsCore) {
  const { repo, bus, log, deps, workDir } = core;
  const afterRun = new Set<(backup: BackupRow, schedule: ScheduleRow | undefined) => Promise<void>>();

  function progress(b: { id: number; target_name: string }, data: Record<string, unknown>): void {
    bus.publish("backup.progress", { backup_id: b.id, target_name: b.target_name, ...data });
  }

  async function fullSnapshotId(r: ResticRepo, tag: string, fallback: string): Promise<string> {
    try {
      const { stdout } = await runRestic(r, ["snapshots", "--json", "--tag", tag], { timeoutMs: core.checkTimeoutMs });
      const list = JSON.parse(stdout) as Array<{ id: string }>;
      return list.at(-1)?.id ?? fallback;
    } catch {
      return fallback;
    }
  }

  async function upload(r: ResticRepo, row: BackupRow, staging: string): Promise<Record<string, unknown>> {
    let summary: Record<string, unknown> | undefined;
    const tags = ["chainlaunch", `backup:${row.id}`, ...(row.schedule_id ? [`schedule:${row.schedule_id}`] : [])];
    await core.resticWithUnlock(r, () =>
      runRestic(r, ["backup", "--json", "--host", "chainlaunch", ...tags.flatMap((t) => ["--tag", t]), "."], {
        cwd: staging,
        signal: core.closing.signal,
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
    return summary;
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
      const recovery = await readRecovery(deps.dataDir);
      if (!recovery) throw new Error(NO_RECOVERY_KEY);
      const target = await core.mustTarget(row.target_id);
      r = resticRepo(core.accessOf(target));
      const manifest = await writeSnapshot(
        {
          dataDir: deps.dataDir,
          database: deps.database,
          masterKey: deps.masterKey(),
          recovery,
          nodes: deps.nodes,
          frozenFile: core.frozenFile,
        },
        staging,
        id,
        (phase) => progress(row, { status: "running", phase, percent: 0 }),
      );
      const manifestSha = await sha256File(join(staging, MANIFEST_FILE));
      await core.checkTarget(core.accessOf(target));
      progress(row, { status: "running", phase: "upload", percent: 0 });
      const summary = await upload(r, row, staging);
      const snapshotId = await fullSnapshotId(r, `backup:${id}`, String(summary.snapshot_id ?? ""));
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
      if (r) core.reportConnection(err, r);
    } finally {
      await rm(staging, { recursive: true, force: true }).catch(() => undefined);
    }
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
    const target = await core.mustTarget(schedule.target_id);
    const r = resticRepo(core.accessOf(target));
    await core.resticWithUnlock(r, () =>
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

  return {
    /**
     * Boot: resume nodes a dead console left paused; runs it left unfinished are failed, and each
     * is reported once as `backup.failure` (the same event, and so the same notifications, as a
     * run that fails while the console is up).
     */
    async recover(): Promise<void> {
      const resumed = await resumeFrozen(core.frozenFile);
      if (resumed.length) log.warn({ pids: resumed }, "resumed node processes a stopped backup had paused");
      const failed = await repo.backups.failInterrupted(nowIso());
      if (failed.length)
        log.warn({ failed: failed.length }, "backups interrupted by a console stop were marked failed");
      for (const b of failed) {
        bus.publish("backup.failure", { target_name: b.target_name, reason: b.reason, backup_id: b.id });
      }
      // Work folders a stopped console left behind.
      for (const name of await readdir(workDir).catch(() => [] as string[])) {
        if (/^(staging|drill)-\d+$/.test(name)) await rm(join(workDir, name), { recursive: true, force: true });
      }
    },
    async listBackups(): Promise<BackupResponse[]> {
      return (await repo.backups.list(1000)).map(toBackup);
    },
    async getBackup(id: number): Promise<BackupResponse> {
      return toBackup(await core.mustBackup(id));
    },
    /** Records a pending backup and queues it; progress goes out as `backup.progress` events. */
    async createBackup(
      body: { targetId: number; scheduleId?: number | undefined; metadata?: unknown },
      user: string | null,
    ): Promise<BackupResponse> {
      await core.mustTarget(body.targetId, "targetId");
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
      // Read before the run is queued: the answer is the pending backup, even when the run starts
      // (and marks it running) before this request finishes.
      const created = toBackup(await core.mustBackup(id));
      void core
        .enqueue(() => runBackup(id))
        .catch((err: unknown) => log.error({ err, backupId: id }, "backup run crashed"));
      return created;
    },
    async deleteBackup(id: number): Promise<void> {
      const b = await core.mustBackup(id);
      if (b.status === "pending" || b.status === "running" || b.verification_status === "running") {
        throw new ConflictError(`backup ${id} is ${b.status === "completed" ? "being verified" : b.status}`);
      }
      if (b.snapshot_id) {
        const target = await core.mustTarget(b.target_id);
        const r = resticRepo(core.accessOf(target));
        await core
          .enqueue(() =>
            core.resticWithUnlock(r, () =>
              runRestic(r, ["forget", b.snapshot_id as string, "--prune"], { timeoutMs: 30 * 60_000 }),
            ),
          )
          .catch((err: unknown) => {
            core.reportConnection(err, r);
            throw toHttpError(err, r);
          });
      }
      await repo.backups.delete(id);
    },
    applyRetention,
  };
}
