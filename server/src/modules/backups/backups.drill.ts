import { mkdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { nowIso } from "../../db/db.js";
import { ConflictError, errorMessage } from "../../http/errors.js";
import type { BackupsCore } from "./backups.core.js";
import { toBackup } from "./backups.mappers.js";
import type { BackupResponse } from "./backups.schema.js";
import { resticRepo, runRestic } from "./restic.js";
import { compareWithManifest, MANIFEST_FILE, sha256File, type BackupManifest } from "./snapshot.js";

/**
 * Restore drills: `restic check`, restore into a scratch folder, compare with the manifest. A
 * drill writes a snapshot's content onto this host, so it is a restore (admin-only, BACKUP_RESTORE).
 */
export function createBackupDrills(core: BackupsCore) {
  const { repo, bus, log, workDir } = core;

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
      const target = await core.mustTarget(row.target_id);
      const r = resticRepo(core.accessOf(target));
      bus.publish("backup.verify", { backup_id: id, status: "running", phase: "check" });
      try {
        await core.resticWithUnlock(r, () => runRestic(r, ["check"], { timeoutMs: 60 * 60_000 }));
      } catch (err) {
        return await fail(`restic check: ${errorMessage(err)}`);
      }
      bus.publish("backup.verify", { backup_id: id, status: "running", phase: "restore" });
      await rm(scratch, { recursive: true, force: true });
      await mkdir(scratch, { recursive: true });
      try {
        await runRestic(r, ["restore", row.snapshot_id, "--target", scratch], {
          timeoutMs: 6 * 60 * 60_000,
          signal: core.closing.signal,
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
    /** Starts a restore drill; the backup's verificationStatus goes running → verified or failed. */
    async verify(id: number): Promise<BackupResponse> {
      const b = await core.mustBackup(id);
      if (b.status !== "completed" || !b.snapshot_id) {
        throw new ConflictError(`backup ${id} is ${b.status}; only a completed backup can be verified`);
      }
      if (b.verification_status === "running") throw new ConflictError(`backup ${id} is already being verified`);
      await repo.backups.update(id, { verification_status: "running", verification_error: null });
      void core.enqueue(() => runDrill(id)).catch((err: unknown) => log.error({ err, backupId: id }, "drill crashed"));
      return toBackup(await core.mustBackup(id));
    },
  };
}
