import { RECONNECT_BASE_MS, RECONNECT_FACTOR, RECONNECT_MAX_ATTEMPTS } from "@/app/constants";

/**
 * Delay before reconnect attempt `attempt` (1-based): 3000 ms growing ×1.5, or null once the
 * maximum of 5 attempts is spent (spec §4, §9).
 */
export function reconnectDelay(
  attempt: number,
  base = RECONNECT_BASE_MS,
  factor = RECONNECT_FACTOR,
  max = RECONNECT_MAX_ATTEMPTS,
): number | null {
  if (attempt < 1 || attempt > max) return null;
  return base * factor ** (attempt - 1);
}

/** The whole schedule: [3000, 4500, 6750, 10125, 15187.5]. */
export function reconnectSchedule(max = RECONNECT_MAX_ATTEMPTS): number[] {
  const out: number[] = [];
  for (let a = 1; ; a++) {
    const d = reconnectDelay(a, RECONNECT_BASE_MS, RECONNECT_FACTOR, max);
    if (d === null) return out;
    out.push(d);
  }
}
