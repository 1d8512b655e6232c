import { createHmac, randomBytes } from "node:crypto";

/**
 * Remembers recently verified HTTP Basic credentials so scripted clients (CLI, Terraform) don't
 * pay a scrypt verification (~50 ms) on every request. Entries are keyed by an HMAC (secret per
 * process) of username, password and the stored password hash: the plain password is never
 * kept, and a password change (new hash) or a deleted user misses at once.
 */
export function createCredentialCache(opts: { ttlMs?: number; max?: number; now?: () => number } = {}) {
  const ttlMs = opts.ttlMs ?? 60_000;
  const max = opts.max ?? 1000;
  const now = opts.now ?? Date.now;
  const secret = randomBytes(32);
  const entries = new Map<string, number>();

  const keyOf = (username: string, password: string, passwordHash: string): string =>
    createHmac("sha256", secret).update(`${username}\0${password}\0${passwordHash}`).digest("base64");

  return {
    has(username: string, password: string, passwordHash: string): boolean {
      const key = keyOf(username, password, passwordHash);
      const until = entries.get(key);
      if (until === undefined) return false;
      if (until <= now()) {
        entries.delete(key);
        return false;
      }
      return true;
    },
    add(username: string, password: string, passwordHash: string): void {
      const key = keyOf(username, password, passwordHash);
      entries.delete(key);
      entries.set(key, now() + ttlMs);
      // Oldest first (insertion order): drop what exceeds the bound.
      for (const k of entries.keys()) {
        if (entries.size <= max) break;
        entries.delete(k);
      }
    },
    get size(): number {
      return entries.size;
    },
  };
}

export type CredentialCache = ReturnType<typeof createCredentialCache>;
