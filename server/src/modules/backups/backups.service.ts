import { createBackupsCore, type BackupsDeps } from "./backups.core.js";
import { createBackupDrills } from "./backups.drill.js";
import { createBackupRecovery } from "./backups.recovery.js";
import { createBackupRuns } from "./backups.runs.js";
import { createBackupSchedules } from "./backups.schedules.js";
import { createBackupTargets } from "./backups.targets.js";
import { createBackupRestores } from "./restore.console.js";

export type { BackupsDeps };

/**
 * Backup targets (restic repositories on S3 or a local directory), backups (consistent snapshots of
 * the database, the data directory and node ledgers), their restore drills, schedules and the
 * recovery key that wraps the master key in every snapshot. One backup or drill runs at a time:
 * they pause nodes and lock the repository. Each verb lives in its own file; this one composes them.
 */
export function createBackupsService(deps: BackupsDeps) {
  const core = createBackupsCore(deps);
  return {
    workDir: core.workDir,
    idle: core.idle,
    /** Console shutdown: running restic processes are stopped and their runs end (failed, interrupted). */
    async close(): Promise<void> {
      core.closing.abort();
      await core.idle();
    },
    ...createBackupTargets(core),
    ...createBackupRuns(core),
    ...createBackupDrills(core),
    ...createBackupSchedules(core),
    ...createBackupRecovery(core),
    ...createBackupRestores(core),
  };
}

export type BackupsService = ReturnType<typeof createBackupsService>;
