import { ConflictError } from "../../http/errors.js";
import type { BackupsCore } from "./backups.core.js";
import { fingerprintOf, newRecovery, readRecovery, writeRecovery } from "./recovery-key.js";

export interface RecoveryStatus {
  configured: boolean;
  fingerprint: string | null;
  createdAt: string | null;
  createdBy: string | null;
  /** False when the console now runs with another master key than the one wrapped (backups fail). */
  matchesMasterKey: boolean;
}

/**
 * The backup recovery key (see recovery-key.ts): made by an admin, shown once, then kept only as
 * its hash and the master key wrapped under it.
 */
export function createBackupRecovery(core: BackupsCore) {
  const { deps } = core;
  return {
    async recoveryStatus(): Promise<RecoveryStatus> {
      const r = await readRecovery(deps.dataDir);
      return {
        configured: Boolean(r),
        fingerprint: r?.fingerprint ?? null,
        createdAt: r?.createdAt ?? null,
        createdBy: r?.createdBy ?? null,
        matchesMasterKey: r ? r.masterFingerprint === fingerprintOf(deps.masterKey().key) : false,
      };
    },
    /**
     * Makes the recovery key and returns it; it is not stored and can't be shown again. Replacing
     * one must be asked for: snapshots made before keep needing the old key.
     */
    async createRecoveryKey(
      body: { replace?: boolean | undefined },
      user: string | null,
    ): Promise<{ recoveryKey: string; fingerprint: string; createdAt: string }> {
      const current = await readRecovery(deps.dataDir);
      if (current && !body.replace) {
        throw new ConflictError(
          `replace: a recovery key exists (fingerprint ${current.fingerprint}); send replace=true to make a new one ` +
            "(snapshots made before keep needing the old key)",
        );
      }
      const { key, record } = newRecovery(deps.masterKey().key, user);
      await writeRecovery(deps.dataDir, record);
      core.log.warn({ fingerprint: record.fingerprint, by: user }, "backup recovery key created");
      return { recoveryKey: key, fingerprint: record.fingerprint, createdAt: record.createdAt };
    },
  };
}
