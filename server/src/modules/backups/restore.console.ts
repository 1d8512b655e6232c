import { existsSync } from "node:fs";
import { readdir, realpath, rm, stat } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { ConflictError, InputError } from "../../http/errors.js";
import type { BackupsCore } from "./backups.core.js";
import { resticRepo, runRestic } from "./restic.js";
import { restoreBackup, RestoreError, restoreSummary, startCommand } from "./restore.js";

/** One ChainLaunch snapshot in a target's repository, with the backup row that made it when this console has it. */
export interface TargetSnapshot {
  id: string;
  shortId: string;
  time: string;
  hostname: string;
  tags: string[];
  backupId: number | null;
  /** From the backup row (what the backup uploaded); null when this console has no row for it. */
  sizeBytes: number | null;
}

export interface RestoreRequest {
  snapshotId: string;
  dataDir: string;
  recoveryKey?: string | undefined;
  databaseUrl?: string | undefined;
}

export interface ConsoleRestoreResult {
  backupId: number;
  createdAt: string;
  snapshotId: string;
  dataDir: string;
  database: "sqlite" | "postgres";
  counts: Record<string, number>;
  /** Where the restored console's master key is: written to master.key, or to be given in CHAINLAUNCH_MASTER_KEY. */
  masterKey: "file" | "env";
  summary: string;
  /** What `chainlaunch backup restore` prints after "start it with:". */
  startCommand: string;
  /** Why the command can't simply run next to this console, and what to change if it should. */
  portHint: string;
  log: string[];
}

/** Path `a` is `b` or lies inside it. */
const within = (a: string, b: string): boolean => {
  const rel = relative(b, a);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
};

/** The real path of `p`, resolving symlinks of the part that exists (the rest is appended as given). */
async function realish(p: string): Promise<string> {
  let head = p;
  const tail: string[] = [];
  while (!existsSync(head)) {
    const up = dirname(head);
    if (up === head) break;
    tail.unshift(head.slice(up.length).replace(/^\/+/, ""));
    head = up;
  }
  return join(await realpath(head), ...tail);
}

/**
 * Restores from the console itself (the UI): a stored target's snapshots listed, and one restored
 * into a new data directory on this host for another `chainlaunch serve`. The running console's own
 * data is never the destination: replacing files under a live console (open SQLite file, running
 * nodes, keys in memory) would corrupt what it writes next.
 */
export function createBackupRestores(core: BackupsCore) {
  const { deps, repo } = core;
  /** Destinations being restored into now: two restores into one directory would share its scratch folder. */
  const inFlight = new Set<string>();

  async function listTargetSnapshots(targetId: number): Promise<TargetSnapshot[]> {
    const target = await core.mustTarget(targetId);
    const r = resticRepo(core.accessOf(target));
    const { stdout } = await runRestic(r, ["snapshots", "--json", "--tag", "chainlaunch"], {
      timeoutMs: core.checkTimeoutMs,
    }).catch((err: unknown) => {
      core.reportConnection(err, r);
      throw err;
    });
    const rows = await repo.backups.byTarget(targetId);
    const bySnapshot = new Map(rows.filter((b) => b.snapshot_id).map((b) => [b.snapshot_id as string, b]));
    const list = (JSON.parse(stdout || "[]") ?? []) as Array<{
      id: string;
      short_id?: string;
      time: string;
      hostname?: string;
      tags?: string[];
    }>;
    return list
      .map((s) => {
        const tags = s.tags ?? [];
        const row = bySnapshot.get(s.id);
        const tagged = tags.find((t) => t.startsWith("backup:"));
        return {
          id: s.id,
          shortId: s.short_id ?? s.id.slice(0, 8),
          time: s.time,
          hostname: s.hostname ?? "",
          tags,
          backupId: row?.id ?? (tagged ? Number(tagged.slice(7)) || null : null),
          sizeBytes: row?.size_bytes != null ? Number(row.size_bytes) : null,
        };
      })
      .sort((a, b) => Date.parse(b.time) - Date.parse(a.time));
  }

  /** Names the field when the destination is not a new (or empty), absolute directory away from the live data. */
  async function checkDestination(dataDir: string): Promise<string> {
    if (!isAbsolute(dataDir)) throw new InputError(`dataDir: '${dataDir}' is not an absolute path`);
    const dest = resolve(dataDir);
    const live = await realish(resolve(deps.dataDir));
    const real = await realish(dest);
    if (within(real, live) || within(dest, resolve(deps.dataDir))) {
      throw new InputError(
        `dataDir: ${dest} is this console's data directory or inside it; restore into a new directory elsewhere ` +
          "(a restore in place needs the console stopped: see docs/backups.md)",
      );
    }
    if (existsSync(dest)) {
      if (!(await stat(dest)).isDirectory()) throw new InputError(`dataDir: ${dest} exists and is not a directory`);
      if ((await readdir(dest)).length > 0) {
        throw new InputError(`dataDir: ${dest} is not empty; restore into a new or empty directory`);
      }
    }
    return dest;
  }

  async function restoreSnapshot(
    targetId: number,
    req: RestoreRequest,
    live: { port: number; userId?: number | undefined },
  ): Promise<ConsoleRestoreResult> {
    const target = await core.mustTarget(targetId);
    const dest = await checkDestination(req.dataDir);
    if (inFlight.has(dest)) throw new ConflictError(`dataDir: a restore into ${dest} is already running`);
    inFlight.add(dest);
    const existed = existsSync(dest);
    try {
      const snapshots = await listTargetSnapshots(targetId);
      const snap =
        req.snapshotId === "latest"
          ? snapshots[0]
          : snapshots.find((s) => s.id.startsWith(req.snapshotId.toLowerCase()));
      if (!snap) {
        throw new InputError(
          `snapshotId: no ChainLaunch snapshot '${req.snapshotId}' in target ${target.name}'s repository`,
        );
      }
      const access = core.accessOf(target);
      const r = resticRepo(access);
      const log: string[] = [];
      const own = deps.masterKey();
      const result = await restoreBackup({
        target: r.repository,
        repo: r,
        snapshot: snap.id,
        dataDir: dest,
        password: access.resticPassword,
        recoveryKey: req.recoveryKey || undefined,
        databaseUrl: req.databaseUrl || undefined,
        consoleMasterKey: { key: own.key, write: !own.fromEnv },
        log: (line) => {
          log.push(line);
          // Each step as it happens, to the admin who asked (their screen matches target and directory).
          if (live.userId) {
            core.bus.publish(
              "backup.restore.progress",
              { target_id: targetId, data_dir: dest, line },
              { userId: live.userId },
            );
          }
        },
      });
      core.log.warn({ targetId, snapshot: snap.id, dataDir: dest }, "backup restored into a new data directory");
      const port = live.port || 8100;
      return {
        backupId: result.manifest.backupId,
        createdAt: result.manifest.createdAt,
        snapshotId: snap.id,
        dataDir: dest,
        database: result.manifest.database.dialect,
        counts: result.counts,
        masterKey: result.manifest.masterKey.included || result.masterKeyWritten ? "file" : "env",
        summary: restoreSummary(result),
        startCommand: startCommand(dest, result),
        portHint:
          `This console listens on port ${port} and runs the same nodes on the same ports: stop it ` +
          `(and its nodes) before starting the restored one. To only look at the restored data next to it, ` +
          `add PORT=${port + 1} (any free port) in front of the command and leave the restored nodes stopped.`,
        log,
      };
    } catch (err) {
      // Nothing half-restored is left behind: the directory goes back to how it was (absent or empty).
      if (existed) {
        for (const name of await readdir(dest).catch(() => [] as string[])) {
          await rm(join(dest, name), { recursive: true, force: true });
        }
      } else {
        await rm(dest, { recursive: true, force: true });
      }
      if (err instanceof RestoreError) throw new InputError(err.message);
      throw err;
    } finally {
      inFlight.delete(dest);
    }
  }

  return { listTargetSnapshots, restoreSnapshot };
}
