/**
 * Readiness polling schedule shared by the supervisor and channel bring-up: a first check after a
 * short delay, then doubling up to a cap. Most Fabric processes are ready within 100–300 ms, so a fixed
 * 500 ms interval wasted most of a poll per wait; the cap keeps slow starts from hammering the probe.
 */
export interface BackoffOptions {
  /** First delay (default 25 ms). */
  firstMs?: number;
  /** Largest delay (default 500 ms). */
  capMs?: number;
  /** Growth per attempt (default 2). */
  factor?: number;
}

/** Returns a function that yields the next delay each time it is called: first, first·f, … capped. */
export function backoffSchedule(opts: BackoffOptions = {}): () => number {
  const cap = Math.max(1, opts.capMs ?? 500);
  const factor = Math.max(1, opts.factor ?? 2);
  let next = Math.min(cap, Math.max(1, opts.firstMs ?? 25));
  return () => {
    const d = next;
    next = Math.min(cap, next * factor);
    return d;
  };
}
