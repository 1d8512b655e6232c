import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * Envelope encryption of private keys at rest: AES-256-GCM under the 32-byte master key.
 *
 * Format (one ASCII string, safe in a TEXT column):
 *   `v1.<iv base64url>.<tag base64url>.<ciphertext base64url>`
 * with a random 12-byte IV per message and a 16-byte tag. The version prefix lets a later
 * key rotation or algorithm change coexist with stored rows. An optional `aad` binds the
 * ciphertext to its context (for example "key:<provider>") so rows can't be swapped.
 */
export const ENVELOPE_VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;
const MASTER_KEY_BYTES = 32;

/** Decryption failed: wrong master key, tampered data or an unknown format. */
export class EnvelopeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EnvelopeError";
  }
}

/** Thrown at boot when CHAINLAUNCH_MASTER_KEY or the key file is unusable. Never contains the key. */
export class MasterKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MasterKeyError";
  }
}

function checkKey(masterKey: Uint8Array): void {
  if (masterKey.length !== MASTER_KEY_BYTES) {
    throw new MasterKeyError(`master key must be ${MASTER_KEY_BYTES} bytes, got ${masterKey.length}`);
  }
}

/** Encrypts `plaintext` (a PEM string or DER bytes) into the versioned envelope string. */
export function encryptEnvelope(masterKey: Uint8Array, plaintext: string | Uint8Array, aad?: string): string {
  checkKey(masterKey);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", masterKey, iv, { authTagLength: TAG_BYTES });
  if (aad !== undefined) cipher.setAAD(Buffer.from(aad, "utf8"));
  const data = typeof plaintext === "string" ? Buffer.from(plaintext, "utf8") : plaintext;
  const ciphertext = Buffer.concat([cipher.update(data), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [ENVELOPE_VERSION, iv, tag, ciphertext]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

/**
 * Decrypts an envelope into bytes.
 * @throws EnvelopeError when the format is unknown or the tag doesn't verify (tampering or
 *   a different master key).
 */
export function decryptEnvelope(masterKey: Uint8Array, envelope: string, aad?: string): Buffer {
  checkKey(masterKey);
  const parts = envelope.split(".");
  if (parts.length !== 4 || parts[0] !== ENVELOPE_VERSION) {
    throw new EnvelopeError(`unknown envelope format (expected ${ENVELOPE_VERSION})`);
  }
  const [, ivB64, tagB64, ctB64] = parts as [string, string, string, string];
  const iv = Buffer.from(ivB64, "base64url");
  const tag = Buffer.from(tagB64, "base64url");
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new EnvelopeError("malformed envelope");
  const decipher = createDecipheriv("aes-256-gcm", masterKey, iv, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(tag);
  if (aad !== undefined) decipher.setAAD(Buffer.from(aad, "utf8"));
  try {
    return Buffer.concat([decipher.update(Buffer.from(ctB64, "base64url")), decipher.final()]);
  } catch {
    throw new EnvelopeError("envelope authentication failed: wrong master key or tampered data");
  }
}

/** Decrypts an envelope holding text (a PEM). */
export function decryptEnvelopeToString(masterKey: Uint8Array, envelope: string, aad?: string): string {
  return decryptEnvelope(masterKey, envelope, aad).toString("utf8");
}

/**
 * Parses a master key given as 64 hex characters or base64/base64url of exactly 32 bytes.
 * @throws MasterKeyError naming the expected forms (never echoing the value).
 */
export function parseMasterKey(value: string, source = "CHAINLAUNCH_MASTER_KEY"): Buffer {
  const v = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(v)) return Buffer.from(v, "hex");
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(v)) {
    const bytes = Buffer.from(v.replace(/-/g, "+").replace(/_/g, "/"), "base64");
    if (bytes.length === MASTER_KEY_BYTES) return bytes;
  }
  throw new MasterKeyError(
    `${source} must be 32 bytes encoded as 64 hex characters or base64 (44 characters); ` +
      `generate one with: openssl rand -base64 32`,
  );
}

export interface MasterKeyResult {
  key: Buffer;
  /** `env` (CHAINLAUNCH_MASTER_KEY), `file` (existing key file) or `created` (new key file). */
  source: "env" | "file" | "created";
  /** The key file path when the key came from or went to a file. */
  path?: string;
}

/**
 * Resolves the master key at boot: CHAINLAUNCH_MASTER_KEY when set, else `<dataDir>/master.key`,
 * which is created (base64, mode 0600, written to *.tmp then renamed) on first use.
 * Losing this key makes every stored private key unreadable: it belongs in backups.
 */
export async function loadOrCreateMasterKey(opts: {
  envValue?: string | undefined;
  dataDir: string;
}): Promise<MasterKeyResult> {
  if (opts.envValue !== undefined && opts.envValue.trim() !== "") {
    return { key: parseMasterKey(opts.envValue), source: "env" };
  }
  const path = join(opts.dataDir, "master.key");
  try {
    const text = await readFile(path, "utf8");
    return { key: parseMasterKey(text, path), source: "file", path };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  await mkdir(opts.dataDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(MASTER_KEY_BYTES);
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, key.toString("base64") + "\n", { mode: 0o600, flag: "wx" });
    await chmod(tmp, 0o600); // the umask can't widen it, but be explicit
    // Another process may have won the race; keep theirs so both agree on one key.
    const existing = await stat(path).catch(() => undefined);
    if (existing) {
      await unlink(tmp);
      return { key: parseMasterKey(await readFile(path, "utf8"), path), source: "file", path };
    }
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  return { key, source: "created", path };
}
