/** Certificates that expire within this many days get a warning (issue 4 §7). */
export const EXPIRY_WARNING_DAYS = 30;

const DAY_MS = 86_400_000;

export type ExpiryStatus = "expired" | "expiring" | "not-yet-valid" | "valid";

export interface ExpiryInfo {
  status: ExpiryStatus;
  /** Whole days until notAfter (negative once expired). */
  daysLeft: number;
}

/**
 * Classifies a certificate's validity window at `now`: expired after notAfter, "expiring" within
 * the warning window, "not-yet-valid" before notBefore, else valid.
 */
export function classifyExpiry(
  notAfter: Date | string,
  notBefore?: Date | string | null,
  now: Date = new Date(),
): ExpiryInfo {
  const end = new Date(notAfter).getTime();
  const t = now.getTime();
  const daysLeft = Math.floor((end - t) / DAY_MS);
  if (Number.isNaN(end)) return { status: "valid", daysLeft: 0 };
  if (t > end) return { status: "expired", daysLeft };
  if (notBefore && t < new Date(notBefore).getTime()) return { status: "not-yet-valid", daysLeft };
  if (end - t <= EXPIRY_WARNING_DAYS * DAY_MS) return { status: "expiring", daysLeft };
  return { status: "valid", daysLeft };
}

/** A short human sentence for the validity state ("Expires in 12 days", "Expired 3 days ago"). */
export function expiryLabel(info: ExpiryInfo): string {
  const d = Math.abs(info.daysLeft);
  const days = `${d} day${d === 1 ? "" : "s"}`;
  switch (info.status) {
    case "expired":
      return d === 0 ? "Expired today" : `Expired ${days} ago`;
    case "expiring":
      return d === 0 ? "Expires today" : `Expires in ${days}`;
    case "not-yet-valid":
      return "Not yet valid";
    default:
      return d > 730 ? `Valid for ${Math.round(d / 365)} years` : `Valid for ${days}`;
  }
}
