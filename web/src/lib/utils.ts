import { clsx, type ClassValue } from "clsx";
import { twMerge } from "tailwind-merge";

/** Joins class names and lets later Tailwind utilities override earlier ones. */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}

/** Up to two upper-case initials of a user name ("jane.doe" → "JD", "admin" → "AD"). */
export function initials(name: string): string {
  const parts = name.split(/[\s._-]+/).filter(Boolean);
  if (parts.length >= 2) return (parts[0]!.charAt(0) + parts[1]!.charAt(0)).toUpperCase();
  return name.slice(0, 2).toUpperCase();
}

/** Formats an ISO timestamp for tables; returns 'Invalid date' for unparseable input (spec §8). */
/** Go's zero time, which upstream-compatible answers carry for "never" (a schedule that never ran). */
export function isZeroTime(value: string | null | undefined): boolean {
  return !!value && value.startsWith("0001-01-01");
}

export function formatDateTime(value: string | null | undefined): string {
  if (!value || isZeroTime(value)) return "—";
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return "Invalid date";
  return d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** "3 minutes ago" style relative time; 'Invalid date' for unparseable input. */
export function formatRelative(value: string, now: number = Date.now()): string {
  const t = new Date(value).getTime();
  if (Number.isNaN(t)) return "Invalid date";
  const sec = Math.round((now - t) / 1000);
  const rtf = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
  const abs = Math.abs(sec);
  if (abs < 60) return rtf.format(-sec, "second");
  if (abs < 3600) return rtf.format(-Math.round(sec / 60), "minute");
  if (abs < 86400) return rtf.format(-Math.round(sec / 3600), "hour");
  return rtf.format(-Math.round(sec / 86400), "day");
}

/** The message of anything thrown (an Error's message, else its string form). */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
