/**
 * Counts failed sign-in attempts per key (an IP, a username) in a sliding window, and the attempts
 * still being checked. In memory: one console process serves one data directory.
 *
 * An attempt holds a place before its password is checked (scrypt is slow and async) and gives it
 * back when the check ends, as a failure or not. A key whose failures plus attempts in flight reach
 * `max` lets no further attempt start until one in flight ends: counting only finished failures let
 * parallel requests all pass the check before any failure was recorded (issue 29, item 7: 45 of 100
 * evaluated where the limit was 10).
 */
export function createFailureLimiter(opts: { max: number; windowMs: number; now?: () => number }) {
  const now = opts.now ?? Date.now;
  const failures = new Map<string, number[]>();
  const inFlight = new Map<string, number>();
  const waiting = new Map<string, Array<() => void>>();

  function recent(key: string): number[] {
    const cutoff = now() - opts.windowMs;
    const list = (failures.get(key) ?? []).filter((t) => t > cutoff);
    if (list.length) failures.set(key, list);
    else failures.delete(key);
    return list;
  }

  function fail(key: string): void {
    const list = recent(key);
    list.push(now());
    failures.set(key, list);
    if (failures.size > 100_000) failures.delete(failures.keys().next().value as string);
  }

  return {
    max: opts.max,
    windowMs: opts.windowMs,
    /** Failures of the key within the window. */
    count(key: string): number {
      return recent(key).length;
    },
    /** Seconds until the key may try again, or 0 when it is not blocked. Attempts in flight don't count. */
    blockedFor(key: string): number {
      const list = recent(key);
      if (list.length < opts.max) return 0;
      const oldest = list[list.length - opts.max] ?? now();
      return Math.max(1, Math.ceil((oldest + opts.windowMs - now()) / 1000));
    },
    /** Whether another attempt may start now: failures and attempts in flight are below `max`. */
    hasRoom(key: string): boolean {
      return recent(key).length + (inFlight.get(key) ?? 0) < opts.max;
    },
    /** Takes a place for an attempt (after `hasRoom`, in the same synchronous step). */
    hold(key: string): void {
      inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
    },
    /** Gives back a place taken by `hold`, recording a failure when the attempt failed. */
    release(key: string, failed: boolean): void {
      const left = (inFlight.get(key) ?? 1) - 1;
      if (left > 0) inFlight.set(key, left);
      else inFlight.delete(key);
      if (failed) fail(key);
      const wake = waiting.get(key);
      waiting.delete(key);
      for (const w of wake ?? []) w();
    },
    /** Resolves when an attempt in flight for the key ends (at once when none is). */
    settled(key: string): Promise<void> {
      if (!inFlight.get(key)) return Promise.resolve();
      return new Promise((resolve) => {
        const list = waiting.get(key) ?? [];
        list.push(resolve);
        waiting.set(key, list);
      });
    },
    fail,
    reset(key: string): void {
      failures.delete(key);
    },
  };
}

export type FailureLimiter = ReturnType<typeof createFailureLimiter>;

/** Places held on several limiters by one attempt; `end` gives them all back. */
export interface HeldAttempt {
  end(failed: boolean): void;
}

/**
 * Takes a place on every `(limiter, key)` at once, or none: throws what `blocked(seconds)` returns when
 * a key has used up its failures, and waits while a key is full only of attempts in flight (they may
 * still succeed). The check and the taking happen in one synchronous step, so two parallel requests
 * can't both take the last place.
 */
export async function holdAttempt(
  places: ReadonlyArray<readonly [FailureLimiter, string]>,
  blocked: (seconds: number) => Error,
): Promise<HeldAttempt> {
  for (;;) {
    const wait = Math.max(0, ...places.map(([l, k]) => l.blockedFor(k)));
    if (wait > 0) throw blocked(wait);
    const full = places.find(([l, k]) => !l.hasRoom(k));
    if (!full) break;
    await full[0].settled(full[1]);
  }
  for (const [l, k] of places) l.hold(k);
  let ended = false;
  return {
    end(failed: boolean): void {
      if (ended) return;
      ended = true;
      for (const [l, k] of places) l.release(k, failed);
    },
  };
}
