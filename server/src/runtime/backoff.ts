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

/** How a supervisor restarts a crashed node; see docs/nodes.md ("Crashes and restarts"). */
export interface RestartPolicy {
  /** Restarts in a row before giving up: the crash after the last one leaves the node in ERROR. */
  maxAttempts: number;
  /** Wait before the first restart; each further one doubles it. */
  baseDelayMs: number;
  /** Cap of the doubling wait. */
  maxDelayMs: number;
  /** A run that stayed RUNNING this long ends the series: its crash counts as the first again. */
  resetAfterMs: number;
}

/** Five restarts after 1, 2, 4, 8 and 16 s; a node up for a minute starts a fresh count. */
export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  maxAttempts: 5,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  resetAfterMs: 60_000,
};

/** What one crash means under a policy. */
export interface CrashVerdict {
  /** Crashes in a row, this one included (1 for the first). */
  attempt: number;
  willRestart: boolean;
  /** Wait before the restart (meaningful when willRestart). */
  delayMs: number;
}

/**
 * Decides a crash from the count of crashes before it and how long the run that just ended was
 * RUNNING (undefined when it never got there). Only that run may reset the count: a node that was up
 * for an hour once and now fails every start must still run out of attempts.
 */
export function crashVerdict(
  policy: RestartPolicy,
  failuresBefore: number,
  ranForMs: number | undefined,
): CrashVerdict {
  const before = ranForMs !== undefined && ranForMs >= policy.resetAfterMs ? 0 : failuresBefore;
  const attempt = before + 1;
  const delayMs = Math.min(policy.baseDelayMs * 2 ** (attempt - 1), policy.maxDelayMs);
  return { attempt, willRestart: attempt <= policy.maxAttempts, delayMs };
}
