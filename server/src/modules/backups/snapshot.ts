import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { copyFile, lstat, mkdir, readdir, readFile, readlink, rm, symlink, writeFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import SQLite from "better-sqlite3";
import { signalGroup } from "../../runtime/proc.js";
import { fingerprintOf, WRAPPED_MASTER_KEY_FILE, type RecoveryRecord } from "./recovery-key.js";

export { fingerprintOf };

/** The manifest at the root of every snapshot; restore and verify read it. */
export const MANIFEST_FILE = "chainlaunch-backup.json";
export const SQLITE_FILE = "database/chainlaunch.db";
export const PG_DUMP_FILE = "database/postgres.sql";

export interface BackupManifest {
  format: 1;
  product: "chainlaunch";
  createdAt: string;
  backupId: number;
  /** The data directory it was taken from (restore rewrites this prefix to the new one). */
  sourceDataDir: string;
  database: { dialect: "sqlite"; file: string } | { dialect: "postgres"; file: string };
  /**
   * included: `data/master.key` is in the snapshot in clear (backups made before the recovery key;
   * restic only encrypts it with the repository password). wrapped: the snapshot holds the master
   * key only as `master-key.wrapped.json`, AES-256-GCM under the admin's recovery key (fingerprint
   * given here). Neither: the key came from CHAINLAUNCH_MASTER_KEY and the restore needs it. The
   * fingerprint (first 16 hex of its SHA-256) lets a restore check the key it is given.
   */
  masterKey: {
    included: boolean;
    fingerprint: string;
    source?: "env" | "file";
    wrapped?: { file: string; recoveryFingerprint: string };
  };
  /** Nodes whose folders were copied while their process group was paused (SIGSTOP), and for how long. */
  nodes: Array<{ id: number; name: string; paused: boolean; pauseMs: number }>;
  /** Every file below the snapshot root except this manifest: size and SHA-256. */
  files: Record<string, { size: number; sha256: string }>;
}

export interface NodePoint {
  id: number;
  name: string;
  dir: string;
  pid?: number;
}

export interface SnapshotSources {
  dataDir: string;
  database: { dialect: "sqlite"; path: string } | { dialect: "postgres"; url: string };
  masterKey: { key: Buffer; fromEnv: boolean };
  /** The master key wrapped under the recovery key: the only form of it a snapshot holds. */
  recovery: RecoveryRecord;
  nodes: () => Promise<NodePoint[]>;
  /** Pids paused right now are written here first, so a console that dies mid-copy resumes them at boot. */
  frozenFile: string;
}

/** Top-level entries of the data directory a snapshot leaves out, and why. */
const EXCLUDED_TOP = new Set([
  "chainlaunch.db", // copied through SQLite's online backup instead
  "chainlaunch.db-wal",
  "chainlaunch.db-shm",
  "backups", // this module's own work folder (staging, restore drills)
]);
/**
 * Relative directories that hold runtime state of this machine only (pid records), and the managed
 * Prometheus's storage: a live TSDB copied file by file is no consistent copy, and metrics history is
 * not what a restore needs (the restored console starts Prometheus again with empty storage).
 */
const EXCLUDED_DIRS = [
  join("runtime", "pids"),
  join("chaincodes", "runtime", "pids"),
  join("prometheus", "runtime", "pids"),
  join("prometheus", "data"),
  join("plugins", ".runtime", "pids"),
];

/**
 * The master key file (and the *.tmp of one being written) never goes into a snapshot: the wrapped
 * copy does (see recovery-key.ts).
 */
function excluded(rel: string): boolean {
  if (!rel.includes(sep)) {
    if (EXCLUDED_TOP.has(rel) || rel.startsWith("chainlaunch.db.") || rel.startsWith("master.key")) return true;
  }
  return EXCLUDED_DIRS.some((d) => rel === d || rel.startsWith(d + sep));
}

/** Copies a tree (regular files, directories, symlinks; sockets and fifos are skipped). */
async function copyTree(src: string, dest: string, skip: (rel: string) => boolean, root = src): Promise<void> {
  await mkdir(dest, { recursive: true });
  for (const entry of await readdir(src, { withFileTypes: true })) {
    const from = join(src, entry.name);
    const rel = relative(root, from);
    if (skip(rel)) continue;
    const to = join(dest, entry.name);
    if (entry.isDirectory()) await copyTree(from, to, skip, root);
    else if (entry.isSymbolicLink()) await symlink(await readlink(from), to);
    else if (entry.isFile()) {
      try {
        await copyFile(from, to);
      } catch (err) {
        // A file removed while we walked (a rotated log) is not an error.
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      }
    }
  }
}

export async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** Size and SHA-256 of every regular file under root (relative paths with /), the manifest excluded. */
export async function checksumTree(root: string): Promise<BackupManifest["files"]> {
  const files: BackupManifest["files"] = {};
  async function walk(dir: string): Promise<void> {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) {
        const rel = relative(root, path).split(sep).join("/");
        if (rel === MANIFEST_FILE) continue;
        const st = await lstat(path);
        files[rel] = { size: st.size, sha256: await sha256File(path) };
      }
    }
  }
  await walk(root);
  return files;
}

/** Connection settings for pg_dump/psql: the password goes in PGPASSWORD, never in argv. */
export function pgConnection(url: string): { args: string[]; env: Record<string, string> } {
  const u = new URL(url);
  const env: Record<string, string> = {};
  if (u.password) env.PGPASSWORD = decodeURIComponent(u.password);
  u.password = "";
  return { args: ["--dbname", u.toString()], env };
}

export function runTool(
  command: string,
  args: string[],
  env: Record<string, string>,
  what: string,
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    child.on("error", (err) => {
      const missing = (err as NodeJS.ErrnoException).code === "ENOENT";
      reject(
        new Error(
          missing
            ? `${command} was not found on PATH (${what}); install the PostgreSQL client (Debian: apt-get install postgresql-client)`
            : `${command} could not run: ${err.message}`,
        ),
      );
    });
    child.on("close", (code) =>
      code === 0
        ? resolve({ stdout, stderr })
        : reject(new Error(`${command} failed (${what}): ${stderr.trim().split("\n").slice(-3).join(" ")}`)),
    );
  });
}

/**
 * Writes a consistent copy of the console into `staging`:
 * - the master key only wrapped under the recovery key (`master-key.wrapped.json`); `master.key`
 *   itself never (a repository's holder must not be able to open the console's keys);
 * - the database: SQLite's online backup API (a consistent copy while the console keeps writing) or
 *   pg_dump (one transaction snapshot);
 * - the data directory (keys, MSPs, node configs, chaincode and project folders), without the
 *   database files, runtime pid records and this module's own folder;
 * - each node's folder while its process group is paused with SIGSTOP, so ledgers, state databases
 *   and Raft WALs are copied as a crash at that instant would leave them, which Fabric and Besu
 *   recover from at start; the node resumes (SIGCONT) as soon as its folder is copied;
 * - the manifest with every file's size and SHA-256.
 */
export async function writeSnapshot(
  sources: SnapshotSources,
  staging: string,
  backupId: number,
  progress: (phase: string) => void,
): Promise<BackupManifest> {
  const masterFingerprint = fingerprintOf(sources.masterKey.key);
  if (sources.recovery.masterFingerprint !== masterFingerprint) {
    throw new Error(
      `the recovery key (fingerprint ${sources.recovery.fingerprint}) wraps another master key than the one this console runs with; an admin creates a new recovery key (Settings > Backups)`,
    );
  }
  await rm(staging, { recursive: true, force: true });
  await mkdir(join(staging, "database"), { recursive: true });
  const { keyHash, fingerprint, wrappedMasterKey } = sources.recovery;
  await writeFile(
    join(staging, WRAPPED_MASTER_KEY_FILE),
    JSON.stringify({ keyHash, fingerprint, wrappedMasterKey, masterFingerprint }, null, 1),
  );

  progress("database");
  let database: BackupManifest["database"];
  if (sources.database.dialect === "sqlite") {
    const src = new SQLite(sources.database.path, { readonly: true, fileMustExist: true });
    try {
      await src.backup(join(staging, SQLITE_FILE));
    } finally {
      src.close();
    }
    database = { dialect: "sqlite", file: SQLITE_FILE };
  } else {
    const conn = pgConnection(sources.database.url);
    await runTool(
      "pg_dump",
      [...conn.args, "--no-owner", "--no-privileges", "--format=plain", "--file", join(staging, PG_DUMP_FILE)],
      conn.env,
      "dumping the database",
    );
    database = { dialect: "postgres", file: PG_DUMP_FILE };
  }

  progress("files");
  const nodes = await sources.nodes();
  const nodeDirs = new Set(nodes.map((n) => relative(sources.dataDir, n.dir)).filter((r) => r && !r.startsWith("..")));
  const data = join(staging, "data");
  await copyTree(sources.dataDir, data, (rel) => excluded(rel) || nodeDirs.has(rel));

  const nodeReport: BackupManifest["nodes"] = [];
  for (const n of nodes) {
    const rel = relative(sources.dataDir, n.dir);
    if (!rel || rel.startsWith("..")) continue;
    progress(`node ${n.name}`);
    const started = Date.now();
    const pid = n.pid;
    if (pid) {
      await writeFile(sources.frozenFile, JSON.stringify([pid]));
      signalGroup(pid, "SIGSTOP");
    }
    try {
      await copyTree(n.dir, join(data, rel), (r) => excluded(join(rel, r)), n.dir).catch((err: unknown) => {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      });
    } finally {
      if (pid) {
        signalGroup(pid, "SIGCONT");
        await rm(sources.frozenFile, { force: true });
      }
    }
    nodeReport.push({ id: n.id, name: n.name, paused: Boolean(pid), pauseMs: Date.now() - started });
  }

  progress("checksums");
  const manifest: BackupManifest = {
    format: 1,
    product: "chainlaunch",
    createdAt: new Date().toISOString(),
    backupId,
    sourceDataDir: sources.dataDir,
    database,
    masterKey: {
      included: false,
      fingerprint: masterFingerprint,
      source: sources.masterKey.fromEnv ? "env" : "file",
      wrapped: { file: WRAPPED_MASTER_KEY_FILE, recoveryFingerprint: fingerprint },
    },
    nodes: nodeReport,
    files: await checksumTree(staging),
  };
  await writeFile(join(staging, MANIFEST_FILE), JSON.stringify(manifest, null, 1));
  return manifest;
}

/** Resumes processes a console left paused when it died in the middle of copying a node. */
export async function resumeFrozen(frozenFile: string): Promise<number[]> {
  let pids: number[] = [];
  try {
    pids = (JSON.parse(await readFile(frozenFile, "utf8")) as unknown[]).filter(
      (p): p is number => typeof p === "number" && p > 1,
    );
  } catch {
    return [];
  }
  for (const pid of pids) signalGroup(pid, "SIGCONT");
  await rm(frozenFile, { force: true });
  return pids;
}

/** Compares a restored tree with its manifest; returns the problems (empty when it matches). */
export async function compareWithManifest(root: string, manifest: BackupManifest): Promise<string[]> {
  const actual = await checksumTree(root);
  const problems: string[] = [];
  for (const [path, want] of Object.entries(manifest.files)) {
    const got = actual[path];
    if (!got) problems.push(`${path}: missing`);
    else if (got.sha256 !== want.sha256) problems.push(`${path}: checksum differs`);
  }
  for (const path of Object.keys(actual)) if (!manifest.files[path]) problems.push(`${path}: not in the manifest`);
  return problems;
}
