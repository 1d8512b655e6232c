import { join } from "node:path";
import type { FastifyBaseLogger } from "fastify";
import { decryptEnvelopeToString, encryptEnvelope } from "../../crypto/envelope.js";
import type { EventBus } from "../../events/bus.js";
import { InputError, NotFoundError, UpstreamError, errorMessage } from "../../http/errors.js";
import type { BackupRow, BackupsRepo, ScheduleRow, TargetRow } from "./backups.repo.js";
import { openOrInit, ResticError, resticRepo, withRepoLock, type ResticRepo, type TargetAccess } from "./restic.js";
import type { NodePoint, SnapshotSources } from "./snapshot.js";

export interface BackupsDeps {
  repo: BackupsRepo;
  bus: EventBus;
  log: FastifyBaseLogger;
  dataDir: string;
  database: SnapshotSources["database"];
  masterKey: () => { key: Buffer; fromEnv: boolean };
  nodes: () => Promise<NodePoint[]>;
  /**
   * Directories under which a LOCAL target's repository may live (absolute). Empty means the
   * default, `<dataDir>/backups/local`.
   */
  localRoots?: string[];
  /** How long a target check may take before the endpoint counts as unreachable. */
  checkTimeoutMs?: number;
}

const AAD = { secret: "backup-target.secretKey", password: "backup-target.resticPassword" };

/**
 * What every part of the backups service shares: the serial work queue (one backup or drill at a
 * time: they pause nodes and lock the repository), the target secrets sealed under the master key,
 * lookups that name what is missing, and restic helpers.
 */
export function createBackupsCore(deps: BackupsDeps) {
  const { repo, bus } = deps;
  const workDir = join(deps.dataDir, "backups");
  const checkTimeoutMs = deps.checkTimeoutMs ?? 30_000;
  /** Aborts restic runs when the console closes (the run is then failed as interrupted). */
  const closing = new AbortController();

  let chain: Promise<unknown> = Promise.resolve();
  let queued = 0;
  function enqueue<T>(fn: () => Promise<T>): Promise<T> {
    queued++;
    const next = chain.then(fn, fn).finally(() => queued--);
    chain = next.catch(() => undefined);
    return next;
  }
  /** Resolves when the queue is empty (tests, shutdown). */
  async function idle(): Promise<void> {
    while (queued > 0) await chain;
  }

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

  /** An exclusive restic command (forget, prune, check) that waits out the repository's lock (restic.ts). */
  const resticWithUnlock = <T>(r: ResticRepo, fn: () => Promise<T>): Promise<T> =>
    withRepoLock(r, fn, { unlockTimeoutMs: checkTimeoutMs });

  return {
    deps,
    repo,
    bus,
    log: deps.log,
    workDir,
    frozenFile: join(workDir, "frozen.json"),
    checkTimeoutMs,
    closing,
    enqueue,
    idle,
    accessOf,
    targetColumns,
    mustTarget,
    mustBackup,
    mustSchedule,
    reportConnection,
    checkTarget,
    resticWithUnlock,
  };
}

export type BackupsCore = ReturnType<typeof createBackupsCore>;
