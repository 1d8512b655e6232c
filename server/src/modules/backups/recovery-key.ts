import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { chmod, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { decryptEnvelope, EnvelopeError, encryptEnvelope } from "../../crypto/envelope.js";

/**
 * The backup recovery key: 32 random bytes shown once to an admin. The console keeps only its
 * SHA-256 and the master key wrapped under it (AES-256-GCM), computed at the moment the key is
 * made. Every snapshot carries that wrapped copy instead of `master.key`, so whoever holds a
 * target's repository (its password, its bucket) can't open the console's private keys without the
 * recovery key, and the console itself can no longer produce the recovery key once it is shown.
 */
export const RECOVERY_KEY_PREFIX = "clrk1-";
/** In the data directory; snapshots carry it too (it opens nothing without the recovery key). */
export const RECOVERY_FILE = "backup-recovery.json";
/** At a snapshot's root: what a restore unwraps. */
export const WRAPPED_MASTER_KEY_FILE = "master-key.wrapped.json";
const WRAP_AAD = "chainlaunch.backup.master-key";
const KEY_BYTES = 32;

/** A recovery key that can't be read, or that doesn't open what it is given. */
export class RecoveryKeyError extends Error {}

export interface RecoveryRecord {
  version: 1;
  /** SHA-256 (hex) of the recovery key's bytes: checks a key given later, opens nothing. */
  keyHash: string;
  /** First 16 hex characters of keyHash, to tell keys apart in the UI and the restore. */
  fingerprint: string;
  /** The master key as an AES-256-GCM envelope under the recovery key. */
  wrappedMasterKey: string;
  /** fingerprintOf(master key) of the key wrapped here. */
  masterFingerprint: string;
  createdAt: string;
  createdBy: string | null;
}

/** Short public fingerprint of a 32-byte key: first 16 hex of its SHA-256. */
export const fingerprintOf = (key: Uint8Array): string => createHash("sha256").update(key).digest("hex").slice(0, 16);
const hashOf = (key: Uint8Array): string => createHash("sha256").update(key).digest("hex");

/**
 * Reads a recovery key as written by `formatRecoveryKey` (spaces and line breaks ignored).
 * @throws RecoveryKeyError naming the expected form, never echoing the value.
 */
export function parseRecoveryKey(text: string): Buffer {
  const v = text.replace(/\s+/g, "");
  const body = v.startsWith(RECOVERY_KEY_PREFIX) ? v.slice(RECOVERY_KEY_PREFIX.length) : "";
  const bytes = /^[A-Za-z0-9_-]{43}$/.test(body) ? Buffer.from(body, "base64url") : Buffer.alloc(0);
  if (bytes.length !== KEY_BYTES) {
    throw new RecoveryKeyError(
      `the recovery key must look like ${RECOVERY_KEY_PREFIX}<43 characters>, as it was shown when it was created`,
    );
  }
  return bytes;
}

export function formatRecoveryKey(bytes: Uint8Array): string {
  return RECOVERY_KEY_PREFIX + Buffer.from(bytes).toString("base64url");
}

/** A new recovery key (returned once, never stored) and the record the console keeps. */
export function newRecovery(masterKey: Buffer, createdBy: string | null): { key: string; record: RecoveryRecord } {
  const bytes = randomBytes(KEY_BYTES);
  const keyHash = hashOf(bytes);
  const record: RecoveryRecord = {
    version: 1,
    keyHash,
    fingerprint: keyHash.slice(0, 16),
    wrappedMasterKey: encryptEnvelope(bytes, masterKey, WRAP_AAD),
    masterFingerprint: fingerprintOf(masterKey),
    createdAt: new Date().toISOString(),
    createdBy,
  };
  return { key: formatRecoveryKey(bytes), record };
}

/**
 * The master key a record wraps, with the recovery key it was made for.
 * @throws RecoveryKeyError when the key is not that record's or the unwrapped key isn't the one recorded.
 */
export function unwrapMasterKey(
  record: Pick<RecoveryRecord, "keyHash" | "fingerprint" | "wrappedMasterKey" | "masterFingerprint">,
  recoveryKey: string,
): Buffer {
  const bytes = parseRecoveryKey(recoveryKey);
  const given = Buffer.from(hashOf(bytes), "hex");
  const want = Buffer.from(record.keyHash, "hex");
  if (given.length !== want.length || !timingSafeEqual(given, want)) {
    throw new RecoveryKeyError(
      `the recovery key has fingerprint ${fingerprintOf(bytes)}, but this backup needs the one with fingerprint ${record.fingerprint}`,
    );
  }
  let master: Buffer;
  try {
    master = decryptEnvelope(bytes, record.wrappedMasterKey, WRAP_AAD);
  } catch (err) {
    if (err instanceof EnvelopeError)
      throw new RecoveryKeyError(`the wrapped master key does not open: ${err.message}`);
    throw err;
  }
  if (fingerprintOf(master) !== record.masterFingerprint) {
    throw new RecoveryKeyError("the unwrapped master key is not the one recorded with it");
  }
  return master;
}

export async function readRecovery(dataDir: string): Promise<RecoveryRecord | undefined> {
  try {
    const r = JSON.parse(await readFile(join(dataDir, RECOVERY_FILE), "utf8")) as RecoveryRecord;
    return r.version === 1 && typeof r.wrappedMasterKey === "string" ? r : undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/** Replaces the record (written to *.tmp, mode 0600, then renamed). */
export async function writeRecovery(dataDir: string, record: RecoveryRecord): Promise<void> {
  const path = join(dataDir, RECOVERY_FILE);
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, JSON.stringify(record, null, 1), { mode: 0o600 });
    await chmod(tmp, 0o600);
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
