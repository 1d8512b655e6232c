/** Thrown inside a waitFor condition to stop waiting at once (a state that can't recover). */
export class Fatal extends Error {}

/**
 * Polls `fn` until it returns something other than undefined; errors count as "not yet" (the
 * last one is reported on timeout) except Fatal, which ends the wait at once.
 */
export async function waitFor<T>(
  what: string,
  fn: () => Promise<T | undefined>,
  ms: number,
  intervalMs = 200,
): Promise<T> {
  const until = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch (e) {
      if (e instanceof Fatal) throw e;
      last = e;
    }
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
