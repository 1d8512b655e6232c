import type { SharedKey } from "@/data/sharing/types";

/** "EC P-256", "RSA 2048", "ED25519": a shared key's type in one label. */
export function sharedKeyType(k: Pick<SharedKey, "algorithm" | "curve" | "key_size">): string {
  if (k.curve) return `${k.algorithm} ${k.curve}`;
  if (k.key_size) return `${k.algorithm} ${k.key_size}`;
  return k.algorithm;
}

/** Whether a shared key's expiry has passed at `now`. */
export function isExpired(k: Pick<SharedKey, "expires_at">, now: number = Date.now()): boolean {
  return k.expires_at !== null && new Date(k.expires_at).getTime() <= now;
}

/**
 * The optional expiry date of the share form ("YYYY-MM-DD", from a date input) as the RFC 3339 time
 * the server takes: the end of that day in the browser's time zone. Empty means no expiry; a day
 * already over is refused.
 */
export function parseShareExpiry(
  raw: string,
  now: number = Date.now(),
): { expiresAt: string | undefined } | { error: string } {
  const text = raw.trim();
  if (text === "") return { expiresAt: undefined };
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return { error: "Enter a date" };
  const end = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 23, 59, 59);
  if (Number.isNaN(end.getTime()) || end.getDate() !== Number(m[3])) return { error: "Enter a date" };
  if (end.getTime() <= now) return { error: "Choose a day after today, or leave it empty" };
  return { expiresAt: end.toISOString() };
}
