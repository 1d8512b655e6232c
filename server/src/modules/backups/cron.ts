import { Cron } from "croner";
import { InputError } from "../../http/errors.js";

/**
 * Cron expressions through croner: 5 fields (minute hour day month weekday) or 6 with seconds
 * first, in the server's time zone. Returns the parser's message when the expression is invalid.
 */
export function checkCron(expression: string): { ok: true; cron: Cron } | { ok: false; error: string } {
  try {
    return { ok: true, cron: new Cron(expression.trim(), { paused: true }) };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}

/** The cron, or a 400 naming the field with the parser's message. */
export function parseCron(expression: string, field = "cronExpression"): Cron {
  const r = checkCron(expression);
  if (!r.ok) throw new InputError(`${field}: ${r.error}`);
  return r.cron;
}

/** The next `count` run times after `from` (ISO-8601 UTC). */
export function nextRuns(cron: Cron, count: number, from: Date = new Date()): string[] {
  return cron.nextRuns(count, from).map((d) => d.toISOString());
}

export function nextRun(expression: string, from: Date = new Date()): string | null {
  const r = checkCron(expression);
  if (!r.ok) return null;
  return r.cron.nextRun(from)?.toISOString() ?? null;
}
