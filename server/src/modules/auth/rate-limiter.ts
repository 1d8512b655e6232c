/**
 * Counts failed sign-in attempts per key (an IP, a username) in a sliding window.
 * In memory: one console process serves one data directory.
 */
export function createFailureLimiter(opts: { max: number; windowMs: number; now?: () => number }) {
  const now = opts.now ?? Date.now;
  const failures = new Map<string, number[]>();

  function recent(key: string): number[] {
    const cutoff = now() - opts.windowMs;
    const list = (failures.get(key) ?? []).filter((t) => t > cutoff);
    if (list.length) failures.set(key, list);
    else failures.delete(key);
    return list;
  }

  return {
    max: opts.max,
    windowMs: opts.windowMs,
    /** Failures of the key within the window. */
    count(key: string): number {
      return recent(key).length;
    },
    /** Seconds until the key may try again, or 0 when it is not blocked. */
    blockedFor(key: string): number {
      const list = recent(key);
      if (list.length < opts.max) return 0;
      const oldest = list[list.length - opts.max] ?? now();
      return Math.max(1, Math.ceil((oldest + opts.windowMs - now()) / 1000));
    },
    fail(key: string): void {
      const list = recent(key);
      list.push(now());
      failures.set(key, list);
      if (failures.size > 100_000) failures.delete(failures.keys().next().value as string);
    },
    reset(key: string): void {
      failures.delete(key);
    },
  };
}

export type FailureLimiter = ReturnType<typeof createFailureLimiter>;
