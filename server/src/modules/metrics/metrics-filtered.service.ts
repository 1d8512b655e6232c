import { GO_ZERO_TIME } from "../../http/schema-helpers.js";
import { InputError } from "../../http/errors.js";
import type { MetricsFederation } from "../federation/federation.metrics.js";
import {
  compileFilters,
  filteredQuery,
  jobPasses,
  keepPassingJobs,
  pageOf,
  type CompiledFilters,
  type FilteredResponse,
  type RawFilter,
} from "./metrics-filters.js";
import type { QueryInput } from "./metrics-query.js";
import type { PromResponse } from "./prometheus-client.js";
import type { PrometheusService, ScopeTarget } from "./prometheus.service.js";
import { PromqlScopeError, promString, regexEscape } from "./promql-scope.js";

/** Every series in scope: the default base query (Prometheus needs one matcher that can't match ""). */
export const ALL_SERIES = '{__name__=~".+"}';

/** A filtered request, whichever way it arrived (query string or JSON body). */
export interface FilteredInput {
  query?: string | undefined;
  filters: RawFilter[];
  start?: string | undefined;
  end?: string | undefined;
  step?: string | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
}

/** Go's zero time (an unset time.Time marshalled anyway) means no time. */
const timeOrNone = (t: string | undefined): string | undefined => (t && t !== GO_ZERO_TIME ? t : undefined);

/** The base query with the filters applied; text that does not parse is a 400 naming `query`. */
async function built(input: FilteredInput, filters: CompiledFilters): Promise<QueryInput> {
  const base = input.query?.trim() ? input.query : ALL_SERIES;
  let query: string;
  try {
    query = await filteredQuery(base, filters);
  } catch (err) {
    if (err instanceof PromqlScopeError) throw new InputError(`query: ${err.message}`, { field: "query" });
    throw err;
  }
  return { query, start: timeOrNone(input.start), end: timeOrNone(input.end), step: input.step || undefined };
}

const scopeName = (t: ScopeTarget): string =>
  t === "all" ? "all jobs" : "node" in t ? `node ${t.node}` : `job ${t.job}`;

/**
 * Upstream's filtered and search routes. Filters become matchers added to every selector (and
 * comparisons on the sample value); the query is then confined like any other (decision 38): to a
 * node's job, a named job, every job of the configuration, or, for a connected console, whatever
 * that console's own scoping allows. Answers are sorted by label set and paginated here.
 */
export function createFilteredMetrics(deps: { prometheus: Pick<PrometheusService, "scope" | "queries"> }) {
  const { prometheus } = deps;

  /** The scope's jobs that pass the job filters (a job filter narrows the scope; it can't widen it). */
  async function jobsOf(target: ScopeTarget, filters: CompiledFilters): Promise<string[]> {
    const scope = await prometheus.scope(target);
    const all = scope === undefined ? [] : typeof scope === "string" ? [scope] : scope;
    return all.filter((j) => jobPasses(j, filters));
  }

  const empty = (q: QueryInput): PromResponse => ({
    status: "success",
    data: { resultType: q.start ? "matrix" : "vector", result: [] },
  });

  return {
    /** A filtered query on this console's Prometheus, confined to the target's job(s). */
    async local(target: ScopeTarget, input: FilteredInput): Promise<FilteredResponse> {
      const filters = await compileFilters(input.filters);
      const q = await built(input, filters);
      const jobs = await jobsOf(target, filters);
      const res = jobs.length ? await prometheus.queries.run(q, jobs.length === 1 ? jobs[0]! : jobs) : empty(q);
      return pageOf(res, { ...input, filters, metadata: { query: q.query, scope: scopeName(target) } });
    },

    /** A filtered query on a connected console's node metrics; that console scopes it again by its grant. */
    async remote(fed: Pick<MetricsFederation, "query">, ref: string, input: FilteredInput): Promise<FilteredResponse> {
      const filters = await compileFilters(input.filters);
      const q = await built(input, filters);
      const res = keepPassingJobs(await fed.query(ref, q), filters);
      return pageOf(res, { ...input, filters, metadata: { query: q.query, scope: `connection ${ref}` } });
    },

    /**
     * Series whose metric name contains `q` (case-insensitive) and that pass the filters, among every
     * job of the configuration, seen in the last five minutes: their label sets, a page at a time.
     */
    async search(input: { q?: string | undefined; filters: RawFilter[]; limit?: number; offset?: number }) {
      const filters = await compileFilters(input.filters);
      if (filters.comparisons.length) {
        throw new InputError(
          "filters: the sample value can't filter a series search; use POST /metrics/query/filtered",
          {
            field: "filters",
          },
        );
      }
      const text = input.q?.trim() ?? "";
      // eslint-disable-next-line no-control-regex
      if (/[\u0000-\u001f\u007f]/.test(text))
        throw new InputError("q: control characters are not allowed", { field: "q" });
      const name = text ? `__name__=~${promString(`(?i).*${regexEscape(text)}.*`)}` : '__name__=~".+"';
      const selector = `{${[name, ...filters.matchers].join(",")}}`;
      const jobs = await jobsOf("all", filters);
      const series = jobs.length ? await prometheus.queries.series([selector], jobs) : [];
      return pageOf(
        { status: "success", data: series },
        { ...input, filters, metadata: { query: selector, scope: scopeName("all"), lookback_seconds: 300 } },
      );
    },
  };
}

export type FilteredMetrics = ReturnType<typeof createFilteredMetrics>;
