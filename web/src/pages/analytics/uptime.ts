/** One stored health check, as GET /nodes/{id}/health/history lists them. */
export interface HealthCheck {
  checkedAt: string;
  status: "healthy" | "unhealthy" | "unreachable";
}

export interface Uptime {
  /** Healthy checks as a percentage of all checks (one decimal); null without checks. */
  percent: number | null;
  total: number;
  healthy: number;
  /**
   * Start of the current healthy run: the first healthy check after the last unhealthy one; null
   * when the latest check is not healthy or there are none.
   */
  upSince: string | null;
  /** True when the healthy run reaches back to the oldest check kept: up since at least then. */
  upSinceBeforeWindow: boolean;
}

/**
 * Uptime over a node's health history. The console checks every node at a fixed interval, so the
 * share of healthy checks is the share of time it was seen healthy. Entries may come in any order.
 */
export function uptimeOf(checks: readonly HealthCheck[]): Uptime {
  const sorted = [...checks].sort((a, b) => Date.parse(a.checkedAt) - Date.parse(b.checkedAt));
  const total = sorted.length;
  const healthy = sorted.filter((c) => c.status === "healthy").length;
  const percent = total === 0 ? null : Math.round((healthy / total) * 1000) / 10;
  let i = total;
  while (i > 0 && sorted[i - 1]?.status === "healthy") i--;
  const upSince = i < total ? (sorted[i]?.checkedAt ?? null) : null;
  return { percent, total, healthy, upSince, upSinceBeforeWindow: upSince !== null && i === 0 };
}

/** Tailwind text colour for an uptime percentage: green from 99 %, amber from 90 %, else red. */
export function uptimeTone(percent: number | null): string {
  if (percent === null) return "text-muted-foreground";
  if (percent >= 99) return "text-green-600 dark:text-green-400";
  if (percent >= 90) return "text-amber-600 dark:text-amber-400";
  return "text-red-600 dark:text-red-400";
}
