import { existsSync } from "node:fs";
import { chmod, lstat, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import SQLite from "better-sqlite3";
import { parseMasterKey } from "../../crypto/envelope.js";
import { RecoveryKeyError, unwrapMasterKey, type RecoveryRecord } from "./recovery-key.js";
import { resticRepo, runRestic, type ResticRepo } from "./restic.js";
import {
  compareWithManifest,
  fingerprintOf,
  MANIFEST_FILE,
  pgConnection,
  runTool,
  type BackupManifest,
} from "./snapshot.js";

/** A restore that can't go on; the message tells the operator what to do. Exit code 2. */
export class RestoreError extends Error {}

export interface RestoreOptions {
  /** A restic repository: `s3:<endpoint>/<bucket>/<path>` or a directory. */
  target: string;
  /** Snapshot id (or a unique prefix), or `latest`. */
  snapshot: string;
  dataDir: string;
  /** Repository password (RESTIC_PASSWORD or --password-file). */
  password: string;
  /** S3 credentials and options (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_DEFAULT_REGION). */
  accessKeyId?: string | undefined;
  secretKey?: string | undefined;
  region?: string | undefined;
  pathStyle?: boolean;
  /**
   * CHAINLAUNCH_MASTER_KEY: the master key itself. A restore needs it, or the recovery key, unless
   * the backup predates the recovery key (then master.key is in the snapshot).
   */
  masterKey?: string | undefined;
  /**
   * The backup recovery key (CHAINLAUNCH_RECOVERY_KEY or --recovery-key-file): unwraps the master
   * key the snapshot holds, which is then written to `<data-dir>/master.key` (mode 0600).
   */
  recoveryKey?: string | undefined;
  /** DATABASE_URL: a PostgreSQL backup is loaded into this (empty) database. */
  databaseUrl?: string | undefined;
  /**
   * A restore run by the console itself (the UI): its own master key. When it is the backup's key
   * no recovery key is needed; `write` puts it into `<data-dir>/master.key` (not when the console
   * keeps its key in CHAINLAUNCH_MASTER_KEY, off the disk on purpose).
   */
  consoleMasterKey?: { key: Buffer; write: boolean } | undefined;
  /** The repository already opened from a stored target (the UI); `target` is then only for messages. */
  repo?: ResticRepo | undefined;
  log?: (line: string) => void;
}

export interface RestoreResult {
  manifest: BackupManifest;
  counts: Record<string, number>;
  /** The master key was written to `<data-dir>/master.key` (unwrapped by the recovery key, or the console's own). */
  masterKeyWritten: boolean;
}

/** Single-quotes a path for a POSIX shell when it holds anything but plain path characters. */
function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The `restored backup …` line the CLI prints and the UI shows. */
export function restoreSummary(result: RestoreResult): string {
  const c = result.counts;
  return (
    `restored backup ${result.manifest.backupId} of ${result.manifest.createdAt}: ${c.users} user(s), ` +
    `${c.fabric_organizations} organization(s), ${c.keys} key(s), ${c.networks} network(s), ${c.nodes} node(s)`
  );
}

/**
 * The command that starts a console on the restored data, the same for the CLI and the UI: what is
 * not in the directory (a PostgreSQL URL, a master key kept in the environment) is left as `...`.
 */
export function startCommand(dataDir: string, result: RestoreResult): string {
  const m = result.manifest;
  return (
    `CHAINLAUNCH_DATA=${shellWord(dataDir)}${m.database.dialect === "postgres" ? " DATABASE_URL=..." : ""}` +
    `${m.masterKey.included || result.masterKeyWritten ? "" : " CHAINLAUNCH_MASTER_KEY=..."} chainlaunch serve`
  );
}

/** The restic view of a repository given on the command line. */
export function cliRepo(o: RestoreOptions): ResticRepo {
  if (o.target.startsWith("s3:")) {
    const url = new URL(o.target.slice(3).includes("://") ? o.target.slice(3) : `https://${o.target.slice(3)}`);
    const [bucket = "", ...path] = url.pathname.replace(/^\/+/, "").split("/");
    return resticRepo({
      type: "S3",
      endpoint: `${url.protocol}//${url.host}`,
      region: o.region ?? null,
      bucketName: bucket,
      bucketPath: path.join("/"),
      accessKeyId: o.accessKeyId ?? null,
      secretKey: o.secretKey ?? null,
      resticPassword: o.password,
      forcePathStyle: o.pathStyle ?? false,
    });
  }
  if (!isAbsolute(o.target) && !o.target.startsWith(".")) {
    throw new RestoreError(`--target: '${o.target}' is neither s3:<endpoint>/<bucket>/<path> nor a directory`);
  }
  return resticRepo({
    type: "LOCAL",
    endpoint: null,
    region: null,
    bucketName: null,
    bucketPath: resolve(o.target),
    accessKeyId: null,
    secretKey: null,
    resticPassword: o.password,
    forcePathStyle: false,
  });
}

const TABLES_TO_COUNT = ["users", "fabric_organizations", "keys", "networks", "nodes", "backup_targets"] as const;

async function moveContents(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true, mode: 0o700 });
  for (const name of await readdir(from)) await rename(join(from, name), join(to, name));
}

/** Rewrites the old data directory prefix in small text files (configs, builder scripts), not ledgers. */
async function relocateFiles(root: string, from: string, to: string): Promise<number> {
  let changed = 0;
  const needle = Buffer.from(from);
  async function walk(dir: string): Promise<void> {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const rel = relative(root, path);
      if (entry.isDirectory()) {
        // Ledgers, state databases and git objects hold no paths of ours; they are also the big part.
        if (
          /^nodes\/[^/]+\/data$/.test(rel.split(sep).join("/")) ||
          entry.name === ".git" ||
          entry.name === "node_modules"
        ) {
          continue;
        }
        await walk(path);
      } else if (entry.isFile()) {
        const st = await stat(path);
        if (st.size > 1024 * 1024) continue;
        const bytes = await readFile(path);
        if (bytes.includes(0) || !bytes.includes(needle)) continue;
        const text = bytes.toString("utf8").split(`${from}/`).join(`${to}/`).split(`${from}"`).join(`${to}"`);
        await writeFile(path, text, { mode: st.mode & 0o777 });
        changed++;
      }
    }
  }
  await walk(root);
  return changed;
}

/** `replace(col, old/, new/)` over every text column of every table (SQLite). */
function relocateSqlite(db: SQLite.Database, from: string, to: string): number {
  let changed = 0;
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .all() as Array<{ name: string }>;
  for (const { name } of tables) {
    const cols = db.prepare(`PRAGMA table_info("${name}")`).all() as Array<{ name: string; type: string }>;
    for (const col of cols) {
      if (!/char|text|clob/i.test(col.type)) continue;
      const q = `"${col.name}"`;
      changed += db
        .prepare(`UPDATE "${name}" SET ${q} = replace(replace(${q}, ?, ?), ?, ?) WHERE instr(${q}, ?) > 0`)
        .run(`${from}/`, `${to}/`, `${from}"`, `${to}"`, from).changes;
    }
  }
  return changed;
}

/**
 * Restores a snapshot into an empty data directory: the files, the database (SQLite file, or the
 * pg_dump loaded into an empty PostgreSQL database given by DATABASE_URL), paths rewritten from the
 * old data directory to the new one, and the backup's own row marked completed. Every file is
 * checked against the snapshot's manifest before anything is moved into place.
 */
export async function restoreBackup(o: RestoreOptions): Promise<RestoreResult> {
  const log = o.log ?? (() => undefined);
  const dataDir = resolve(o.dataDir);
  if (existsSync(dataDir) && (await readdir(dataDir)).length > 0) {
    throw new RestoreError(`--data-dir: ${dataDir} is not empty; restore into a new or empty directory`);
  }
  if (!o.password) throw new RestoreError("the repository password is missing: set RESTIC_PASSWORD or --password-file");
  const repo = o.repo ?? cliRepo(o);
  const scratch = join(dirname(dataDir), `.${dataDir.split(sep).pop() ?? "data"}.restore-${process.pid}`);
  await rm(scratch, { recursive: true, force: true });
  await mkdir(scratch, { recursive: true, mode: 0o700 });
  try {
    log(`restoring snapshot ${o.snapshot} from ${repo.repository}`);
    await runRestic(repo, ["restore", o.snapshot, "--target", scratch]).catch((err: Error) => {
      throw new RestoreError(`restic restore failed: ${err.message}`);
    });
    const snapshot = await snapshotFacts(repo, o.snapshot);
    let manifest: BackupManifest;
    try {
      manifest = JSON.parse(await readFile(join(scratch, MANIFEST_FILE), "utf8")) as BackupManifest;
    } catch {
      throw new RestoreError(`snapshot ${o.snapshot} has no ${MANIFEST_FILE}: it is not a ChainLaunch backup`);
    }
    const problems = await compareWithManifest(scratch, manifest);
    if (problems.length) {
      throw new RestoreError(`the restored files differ from the manifest: ${problems.slice(0, 5).join("; ")}`);
    }
    log(`checked ${Object.keys(manifest.files).length} files against the manifest`);

    const masterKey = await masterKeyFor(o, manifest, scratch);

    if (manifest.database.dialect === "postgres" && !o.databaseUrl) {
      throw new RestoreError(
        "this backup's database is PostgreSQL: set DATABASE_URL to an empty database to load it into, and use the same DATABASE_URL for `chainlaunch serve`",
      );
    }
    if (manifest.database.dialect === "sqlite" && o.databaseUrl) {
      throw new RestoreError(
        "this backup's database is SQLite: unset DATABASE_URL (the console will use the restored file)",
      );
    }

    // Files into place.
    const from = manifest.sourceDataDir.replace(/\/+$/, "");
    await moveContents(join(scratch, "data"), dataDir);
    const files = from === dataDir ? 0 : await relocateFiles(dataDir, from, dataDir);
    const counts: Record<string, number> = {};
    if (manifest.database.dialect === "sqlite") {
      const dbPath = join(dataDir, "chainlaunch.db");
      await rename(join(scratch, manifest.database.file), dbPath);
      const db = new SQLite(dbPath);
      try {
        const rows = from === dataDir ? 0 : relocateSqlite(db, from, dataDir);
        log(`rewrote ${from} -> ${dataDir} in ${files} file(s) and ${rows} database value(s)`);
        db.prepare(COMPLETE_ROW_SQL.replace(/\$\d/g, "?")).run(...completeRowParams(manifest, snapshot));
        for (const t of TABLES_TO_COUNT)
          counts[t] = (db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n;
      } finally {
        db.close();
      }
    } else {
      await loadPostgres(
        o.databaseUrl as string,
        join(scratch, manifest.database.file),
        from,
        dataDir,
        manifest,
        counts,
        snapshot,
      );
      log(`rewrote ${from} -> ${dataDir} in ${files} file(s) and the database`);
    }
    if (masterKey) {
      const keyFile = join(dataDir, "master.key");
      await writeFile(keyFile, masterKey.key.toString("base64") + "\n", { mode: 0o600 });
      await chmod(keyFile, 0o600);
      log(
        masterKey.from === "recovery"
          ? `the master key (fingerprint ${manifest.masterKey.fingerprint}) was unwrapped with the recovery key into master.key`
          : `this console's master key (fingerprint ${manifest.masterKey.fingerprint}, the backup's) was written to master.key`,
      );
    }
    // Pid records of the old machine were never backed up; make sure the runtime folders exist.
    await mkdir(join(dataDir, "runtime"), { recursive: true });
    if ((await lstat(join(dataDir, "master.key")).catch(() => undefined)) && manifest.masterKey.included) {
      log("the master key was restored into the data directory (master.key)");
    }
    return { manifest, counts, masterKeyWritten: Boolean(masterKey) };
  } finally {
    await rm(scratch, { recursive: true, force: true }).catch(() => undefined);
  }
}

/**
 * Checks the master key the restore will run with: the one in CHAINLAUNCH_MASTER_KEY, the one a
 * recovery key unwraps (returned, to be written to master.key), or (backups made before the
 * recovery key) the data/master.key inside the snapshot.
 */
async function masterKeyFor(
  o: RestoreOptions,
  manifest: BackupManifest,
  scratch: string,
): Promise<{ key: Buffer; from: "recovery" | "console" } | undefined> {
  const mk = manifest.masterKey;
  const fromEnv = o.masterKey ? fingerprintOf(parseMasterKey(o.masterKey)) : undefined;
  if (mk.included) {
    if (fromEnv && fromEnv !== mk.fingerprint) {
      throw new RestoreError(
        "CHAINLAUNCH_MASTER_KEY is set but differs from the key in this backup (data/master.key); unset it to use the backup's key",
      );
    }
    return undefined;
  }
  if (fromEnv) {
    if (fromEnv !== mk.fingerprint) {
      throw new RestoreError(
        `CHAINLAUNCH_MASTER_KEY has fingerprint ${fromEnv}, but the backup needs the key with fingerprint ${mk.fingerprint}`,
      );
    }
    return undefined;
  }
  const own = o.consoleMasterKey;
  if (own && fingerprintOf(own.key) === mk.fingerprint)
    return own.write ? { key: own.key, from: "console" } : undefined;
  if (own && !o.recoveryKey) {
    throw new RestoreError(
      `recoveryKey: this snapshot was made with another master key (fingerprint ${mk.fingerprint}) than this console's ` +
        `(${fingerprintOf(own.key)})` +
        (mk.wrapped ? `; give the backup recovery key (fingerprint ${mk.wrapped.recoveryFingerprint})` : ""),
    );
  }
  if (!mk.wrapped) {
    throw new RestoreError(
      `this backup was made with the master key from CHAINLAUNCH_MASTER_KEY (fingerprint ${mk.fingerprint}); ` +
        "it is not in the backup. Set CHAINLAUNCH_MASTER_KEY to that key for the restore and for every `chainlaunch serve` on the restored data",
    );
  }
  if (!o.recoveryKey) {
    throw new RestoreError(
      `this backup holds the master key (fingerprint ${mk.fingerprint}) wrapped under the recovery key with fingerprint ` +
        `${mk.wrapped.recoveryFingerprint}: set CHAINLAUNCH_RECOVERY_KEY or --recovery-key-file (or CHAINLAUNCH_MASTER_KEY to the master key itself)`,
    );
  }
  try {
    const record = JSON.parse(await readFile(join(scratch, mk.wrapped.file), "utf8")) as RecoveryRecord;
    const key = unwrapMasterKey(record, o.recoveryKey);
    if (fingerprintOf(key) !== mk.fingerprint) {
      throw new RecoveryKeyError(
        `the unwrapped master key is not the one this backup was made with (${mk.fingerprint})`,
      );
    }
    return { key, from: "recovery" };
  } catch (err) {
    if (err instanceof RecoveryKeyError) throw new RestoreError(`recovery key: ${err.message}`);
    throw err;
  }
}

async function loadPostgres(
  url: string,
  dumpFile: string,
  from: string,
  to: string,
  manifest: BackupManifest,
  counts: Record<string, number>,
  snapshot: SnapshotFacts,
): Promise<void> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const existing = await client.query(
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'",
    );
    if ((existing.rows[0] as { n: number }).n > 0) {
      throw new RestoreError("DATABASE_URL: the database is not empty; restore into a new, empty database");
    }
    const conn = pgConnection(url);
    await runTool(
      "psql",
      [...conn.args, "-v", "ON_ERROR_STOP=1", "--single-transaction", "--quiet", "-f", dumpFile],
      conn.env,
      "loading the database",
    );
    if (from !== to) {
      const cols = await client.query(
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' AND data_type IN ('text', 'character varying')",
      );
      for (const { table_name, column_name } of cols.rows as Array<{ table_name: string; column_name: string }>) {
        const q = `"${column_name}"`;
        await client.query(
          `UPDATE "${table_name}" SET ${q} = replace(replace(${q}, $1, $2), $3, $4) WHERE position($5 in ${q}) > 0`,
          [`${from}/`, `${to}/`, `${from}"`, `${to}"`, from],
        );
      }
    }
    await client.query(COMPLETE_ROW_SQL, completeRowParams(manifest, snapshot));
    for (const t of TABLES_TO_COUNT) {
      counts[t] = (await client.query(`SELECT count(*)::int AS n FROM ${t}`)).rows[0].n as number;
    }
  } finally {
    await client.end();
  }
}

/** What the repository says about the restored snapshot: its full id, start time and restore size. */
interface SnapshotFacts {
  id: string | null;
  time: string | null;
  sizeBytes: number | null;
}

async function snapshotFacts(repo: ResticRepo, snapshot: string): Promise<SnapshotFacts> {
  const facts: SnapshotFacts = { id: null, time: null, sizeBytes: null };
  try {
    const { stdout } = await runRestic(repo, ["snapshots", "--json", snapshot]);
    const found = (JSON.parse(stdout) as Array<{ id: string; time: string }>).at(-1);
    if (!found) return facts;
    facts.id = found.id;
    facts.time = found.time;
    const stats = await runRestic(repo, ["stats", "--json", "--mode", "restore-size", found.id]);
    facts.sizeBytes = Number((JSON.parse(stats.stdout) as { total_size?: number }).total_size ?? 0) || null;
  } catch {
    // The facts are for the record only: the restore itself has already succeeded.
  }
  return facts;
}

/**
 * The snapshot holds the database as it was while its own backup ran, so that backup's row says
 * "running" with no snapshot id, size or duration. The restore completes it from the repository:
 * the snapshot's id, its restore size (what the backup uploaded), and as duration the time from
 * the backup's start until restic began the upload (the upload's own time is in no snapshot).
 */
const COMPLETE_ROW_SQL =
  "UPDATE backups SET status = 'completed', error_message = NULL, completed_at = coalesce(completed_at, $1), " +
  "snapshot_id = coalesce(snapshot_id, $2), size_bytes = coalesce(size_bytes, $3), " +
  "duration_ms = coalesce(duration_ms, $4) WHERE id = $5 AND status IN ('pending', 'running')";

function completeRowParams(manifest: BackupManifest, snapshot: SnapshotFacts): unknown[] {
  const elapsed = snapshot.time ? Date.parse(snapshot.time) - Date.parse(manifest.createdAt) : NaN;
  return [
    manifest.createdAt,
    snapshot.id,
    snapshot.sizeBytes,
    Number.isFinite(elapsed) && elapsed >= 0 ? Math.round(elapsed) : null,
    manifest.backupId,
  ];
}

/** `chainlaunch backup snapshots`: the repository's ChainLaunch snapshots. */
export async function listSnapshots(o: RestoreOptions): Promise<Array<{ id: string; time: string; tags: string[] }>> {
  const { stdout } = await runRestic(cliRepo(o), ["snapshots", "--json", "--tag", "chainlaunch"]);
  return (JSON.parse(stdout) as Array<{ id: string; time: string; tags?: string[] }>).map((s) => ({
    id: s.id,
    time: s.time,
    tags: s.tags ?? [],
  }));
}
