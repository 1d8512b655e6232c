/**
 * Bytes in a megabyte, as this console shows sizes: 2^20, as upstream's UI and its notification texts count
 * them ("MB to 2 decimals", product spec). One constant so the notification, the e-mail and the backups table
 * can't disagree about the same backup (they did: 198.80 MB against 208.45 MB).
 */
export const BYTES_PER_MB = 1024 * 1024;

/** Bytes as megabytes with two decimals, without the unit ("1.50"); "0.00" for anything not a number. */
export function megabytes(size: unknown): string {
  const n = typeof size === "number" ? size : typeof size === "string" ? Number(size) : NaN;
  return Number.isFinite(n) ? (n / BYTES_PER_MB).toFixed(2) : "0.00";
}
