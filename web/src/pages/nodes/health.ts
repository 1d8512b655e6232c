/** One bar of the health sparkline. */
export interface HealthBar {
  at: string;
  status: "healthy" | "unhealthy" | "unreachable";
  ms: number;
}

/** Oldest-first bars, at most `max` (the newest ones), from history entries in any order. */
export function healthBars(
  checks: readonly { checkedAt: string; status: HealthBar["status"]; responseTimeMs: number }[],
  max = 60,
): HealthBar[] {
  return [...checks]
    .sort((a, b) => Date.parse(a.checkedAt) - Date.parse(b.checkedAt))
    .slice(-max)
    .map((c) => ({ at: c.checkedAt, status: c.status, ms: c.responseTimeMs }));
}

export const HEALTH_COLOURS: Record<HealthBar["status"], string> = {
  healthy: "bg-green-500",
  unhealthy: "bg-red-500",
  unreachable: "bg-gray-400",
};
