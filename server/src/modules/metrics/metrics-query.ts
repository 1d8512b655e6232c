import { InputError } from "../../http/errors.js";
import { keepJob, type PrometheusClient, type PromResponse } from "./prometheus-client.js";
import { PromqlScopeError, scopeQuery, scopeQueryToSet, scopeSelector } from "./promql-scope.js";

/** Prometheus refuses range queries of more than 11,000 points per series. */
const MAX_POINTS = 11_000;

/** A time as the API takes it: RFC 3339 or Unix seconds (as Prometheus does). Returns Unix seconds. */
export function parseTime(value: string, field: string): number {
  const trimmed = value.trim();
  if (/^-?\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const ms = Date.parse(trimmed);
  if (Number.isNaN(ms)) throw new InputError(`${field}: "${value}" is not an RFC 3339 time or Unix seconds`);
  return ms / 1000;
}

const UNIT_SECONDS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86_400, w: 604_800, y: 31_536_000 };

/** A step as Prometheus takes it (`15s`, `1m`, `1h30m`, or seconds). Returns seconds. */
export function parseStep(value: string, field = "step"): number {
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) {
    const n = Number(trimmed);
    if (n > 0) return n;
  } else if (/^(\d+(ms|s|m|h|d|w|y))+$/.test(trimmed)) {
    let total = 0;
    for (const [, n, unit] of trimmed.matchAll(/(\d+)(ms|s|m|h|d|w|y)/g)) {
      total += Number(n) * (UNIT_SECONDS[unit as string] ?? 0);
    }
    if (total > 0) return total;
  }
  throw new InputError(`${field}: "${value}" is not a positive duration such as 15s, 1m or 300`);
}

/** An instant query, or a range query when `start` and `end` are given. */
export interface QueryInput {
  query: string;
  start?: string | undefined;
  end?: string | undefined;
  step?: string | undefined;
}

/** One scrape job (a node's own series), or a non-empty set of them (what a federated console may read). */
export type JobScope = string | string[];

/**
 * Queries confined to one scrape job or a set of them, over any Prometheus client. Every selector is
 * rewritten to the job(s), results are filtered to them once more, and Prometheus's own message is
 * returned (400) for PromQL it refuses.
 */
export function createScopedQueries(prom: () => PrometheusClient) {
  /** The query with every selector bound to `job` (or the set), or a 400 with Prometheus's (or our) reason. */
  async function scoped(query: string, job: JobScope): Promise<string> {
    try {
      return typeof job === "string" ? await scopeQuery(query, "job", job) : await scopeQueryToSet(query, "job", job);
    } catch (err) {
      if (!(err instanceof PromqlScopeError)) throw err;
      if (err.syntax) {
        // Prometheus's own words for what is wrong; it parses without evaluating any series.
        await prom().check(query);
      }
      throw new InputError(`query: ${err.message}`);
    }
  }

  async function run(input: QueryInput, job: JobScope): Promise<PromResponse> {
    const q = await scoped(input.query, job);
    const hasStart = input.start !== undefined && input.start !== "";
    const hasEnd = input.end !== undefined && input.end !== "";
    if (!hasStart && !hasEnd) return keepJob(await prom().query(q), job);
    if (!hasStart || !hasEnd) throw new InputError(`${hasStart ? "end" : "start"}: a range query needs start and end`);
    const start = parseTime(input.start as string, "start");
    const end = parseTime(input.end as string, "end");
    if (end <= start) throw new InputError("end: must be after start");
    // Without a step, about 250 points over the range (at least one second apart).
    const step = input.step ? parseStep(input.step) : Math.max(1, Math.ceil((end - start) / 250));
    if ((end - start) / step > MAX_POINTS) {
      throw new InputError(
        `step: ${input.step ?? step} gives more than ${MAX_POINTS} points over this range; use a larger step`,
      );
    }
    return keepJob(await prom().queryRange(q, String(start), String(end), String(step)), job);
  }

  return {
    run,
    /** Values of one label among the job's series, optionally narrowed by series selectors (`match[]`). */
    async labelValues(label: string, match: string[], job: JobScope): Promise<PromResponse> {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(label)) throw new InputError(`label: "${label}" is not a label name`);
      const selectors = match.length ? match : ["{}"];
      const scopedMatch = await Promise.all(
        selectors.map((m, i) =>
          scopeSelector(m, "job", job).catch((err: unknown) => {
            throw err instanceof PromqlScopeError ? new InputError(`match[${i}]: ${err.message}`) : err;
          }),
        ),
      );
      return prom().labelValues(label, scopedMatch);
    },
    /**
     * Label sets of the job's series matching any selector, seen in the last `lookbackS` seconds;
     * each selector is scoped like a query's, and the answer fenced once more by job.
     */
    async series(match: string[], job: JobScope, lookbackS = 300): Promise<Record<string, string>[]> {
      const scopedMatch = await Promise.all(
        match.map((m, i) =>
          scopeSelector(m, "job", job).catch((err: unknown) => {
            throw err instanceof PromqlScopeError ? new InputError(`match[${i}]: ${err.message}`) : err;
          }),
        ),
      );
      // Rounded up: a series first scraped within this second is still found.
      const now = Math.ceil(Date.now() / 1000);
      const res = await prom().series(scopedMatch, String(now - lookbackS), String(now));
      const allowed = new Set(typeof job === "string" ? [job] : job);
      const list = Array.isArray(res.data) ? (res.data as Record<string, string>[]) : [];
      return list.filter((s) => s.job !== undefined && allowed.has(s.job));
    },
  };
}

export type ScopedQueries = ReturnType<typeof createScopedQueries>;
