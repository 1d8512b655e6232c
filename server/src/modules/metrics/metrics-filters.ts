import type { RE2JS } from "re2js";
import { InputError } from "../../http/errors.js";
import type { PromResponse } from "./prometheus-client.js";
import { addMatchers, promString, regexEscape } from "./promql-scope.js";

/** Upstream's FilterOperator values. */
export const FILTER_OPERATORS = [
  "eq",
  "ne",
  "contains",
  "not_contains",
  "starts_with",
  "ends_with",
  "regex",
  "not_regex",
  "gt",
  "lt",
  "gte",
  "lte",
  "in",
  "not_in",
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** One filter (upstream's MetricFilter): a label (or `value`, the sample value), an operator and a value. */
export interface MetricFilter {
  property: string;
  operator: FilterOperator;
  value: unknown;
}

/** A filter as it arrived, with the name of the field it came from (for the 400s). */
export interface RawFilter {
  field: string;
  property: unknown;
  operator: unknown;
  value: unknown;
}

export const MAX_FILTERS = 20;
const MAX_VALUE = 1000;
/** Prometheus's label name syntax; anything else could break out of a matcher, so it is refused. */
const LABEL_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
/** Properties that mean the sample value rather than a label. */
const VALUE_PROPERTIES = new Set(["value", "__value__"]);
const COMPARISONS: Partial<Record<FilterOperator, string>> = {
  eq: "==",
  ne: "!=",
  gt: ">",
  lt: "<",
  gte: ">=",
  lte: "<=",
};

/** What filters become: matchers for every selector, comparisons on the result, and the job tests. */
export interface CompiledFilters {
  /** Matcher texts (escaped) added to every selector of the query. */
  matchers: string[];
  /** Comparison suffixes on the sample value (`> 5`), applied to the whole expression. */
  comparisons: string[];
  /**
   * Tests on the `job` label. The scoping replaces any job matcher, so a job filter narrows the set
   * of jobs instead (or, for a connected console's answer, the series it returned).
   */
  jobTests: { pattern: RE2JS; negate: boolean }[];
  /** The filters as applied (operators lower-case, values normalised). */
  applied: MetricFilter[];
}

/** "property:operator:value" (the value may hold colons). */
function splitTriple(text: string, field: string): RawFilter {
  const first = text.indexOf(":");
  const second = first < 0 ? -1 : text.indexOf(":", first + 1);
  if (first <= 0 || second < 0) {
    throw new InputError(`${field}: "${text.slice(0, 200)}" is not property:operator:value`, { field });
  }
  return {
    field,
    property: text.slice(0, first),
    operator: text.slice(first + 1, second),
    value: text.slice(second + 1),
  };
}

const asList = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/**
 * The filters of a query string, in upstream's three spellings: `filters=p:op:v,p2:op2:v2`,
 * `filter=p:op:v` (repeatable) and `filter[p][op]=v`. Any other key is refused by name.
 */
export function filtersFromQuery(query: Record<string, unknown>, known: readonly string[]): RawFilter[] {
  const out: RawFilter[] = [];
  for (const [key, raw] of Object.entries(query)) {
    if (known.includes(key)) continue;
    if (key === "filters") {
      for (const text of asList(raw)) {
        if (typeof text !== "string" || text.trim() === "") continue;
        text.split(",").forEach((part, i) => out.push(splitTriple(part.trim(), `filters[${i}]`)));
      }
      continue;
    }
    if (key === "filter" || key === "filter[]") {
      asList(raw).forEach((text, i) => out.push(splitTriple(String(text), `filter[${i}]`)));
      continue;
    }
    const m = /^filter\[([^\]]*)\]\[([^\]]*)\]$/.exec(key);
    if (!m) throw new InputError(`${key}: unknown query parameter`, { field: key });
    for (const value of asList(raw)) out.push({ field: key, property: m[1], operator: m[2], value });
  }
  return out;
}

/** The filters of a JSON body (`filters`: MetricFilter[], null or missing for none). */
export function filtersFromBody(
  filters: readonly { property: string; operator: string; value: unknown }[] | null | undefined,
): RawFilter[] {
  return (filters ?? []).map((f, i) => ({ field: `filters[${i}]`, ...f }));
}

/** A label value: text of at most 1000 characters without control characters. */
function textValue(v: unknown, field: string): string {
  if (typeof v !== "string" && typeof v !== "number" && typeof v !== "boolean") {
    throw new InputError(`${field}.value: must be a string or a number`, { field: `${field}.value` });
  }
  const s = String(v);
  if (s.length > MAX_VALUE) throw new InputError(`${field}.value: longer than ${MAX_VALUE} characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(s)) {
    throw new InputError(`${field}.value: control characters are not allowed`, { field: `${field}.value` });
  }
  return s;
}

/** A regular expression checked the way Prometheus will read it (RE2), so a bad one is a 400 naming the filter. */
async function checkedRegex(pattern: string, field: string): Promise<RE2JS> {
  const { RE2JS, RE2JSException } = await import("re2js");
  try {
    return RE2JS.compile(`^(?:${pattern})$`);
  } catch (err) {
    if (err instanceof RE2JSException) {
      throw new InputError(`${field}.value: not a valid RE2 regular expression`, { field: `${field}.value` });
    }
    throw err;
  }
}

/**
 * Validates filters and turns them into PromQL: every label name is checked against Prometheus's
 * syntax and every value is escaped (regex metacharacters too, where the operator is not `regex`),
 * so no filter can add an operator or a selector to the query. 400s name the filter's field.
 */
export async function compileFilters(raw: RawFilter[]): Promise<CompiledFilters> {
  if (raw.length > MAX_FILTERS) throw new InputError(`filters: at most ${MAX_FILTERS} filters`, { field: "filters" });
  const out: CompiledFilters = { matchers: [], comparisons: [], jobTests: [], applied: [] };
  for (const f of raw) {
    const operator = typeof f.operator === "string" ? f.operator.toLowerCase() : "";
    if (!(FILTER_OPERATORS as readonly string[]).includes(operator)) {
      throw new InputError(
        `${f.field}.operator: "${String(f.operator).slice(0, 40)}" is not one of ${FILTER_OPERATORS.join(", ")}`,
        {
          field: `${f.field}.operator`,
        },
      );
    }
    const op = operator as FilterOperator;
    const property = typeof f.property === "string" ? f.property : "";
    if (VALUE_PROPERTIES.has(property)) {
      const symbol = COMPARISONS[op];
      if (!symbol) {
        throw new InputError(`${f.field}.operator: the sample value takes eq, ne, gt, lt, gte or lte`, {
          field: `${f.field}.operator`,
        });
      }
      const n =
        typeof f.value === "number"
          ? f.value
          : typeof f.value === "string" && f.value.trim() !== ""
            ? Number(f.value)
            : NaN;
      if (!Number.isFinite(n)) {
        throw new InputError(`${f.field}.value: the sample value is compared with a number`, {
          field: `${f.field}.value`,
        });
      }
      out.comparisons.push(`${symbol} ${n}`);
      out.applied.push({ property, operator: op, value: n });
      continue;
    }
    if (!LABEL_NAME.test(property)) {
      throw new InputError(`${f.field}.property: "${property.slice(0, 60)}" is not a label name (or value)`, {
        field: `${f.field}.property`,
      });
    }
    if (COMPARISONS[op] && op !== "eq" && op !== "ne") {
      throw new InputError(`${f.field}.operator: ${op} compares the sample value; use property "value"`, {
        field: `${f.field}.operator`,
      });
    }
    let pattern: string;
    let negate = false;
    let value: unknown;
    if (op === "in" || op === "not_in") {
      const items = Array.isArray(f.value) ? f.value : textValue(f.value, f.field).split(/[|,]/);
      if (items.length === 0 || items.length > 100) {
        throw new InputError(`${f.field}.value: 1 to 100 values`, { field: `${f.field}.value` });
      }
      const values = items.map((v) => textValue(v, f.field));
      pattern = values.map(regexEscape).join("|");
      negate = op === "not_in";
      value = values;
    } else {
      const v = textValue(f.value, f.field);
      value = v;
      const esc = regexEscape(v);
      const patterns: Record<string, [string, boolean]> = {
        eq: [esc, false],
        ne: [esc, true],
        contains: [`.*${esc}.*`, false],
        not_contains: [`.*${esc}.*`, true],
        starts_with: [`${esc}.*`, false],
        ends_with: [`.*${esc}`, false],
        regex: [v, false],
        not_regex: [v, true],
      };
      [pattern, negate] = patterns[op] as [string, boolean];
    }
    const compiled = await checkedRegex(pattern, f.field);
    out.applied.push({ property, operator: op, value });
    if (property === "job") {
      out.jobTests.push({ pattern: compiled, negate });
      continue;
    }
    if (op === "eq" || op === "ne")
      out.matchers.push(`${property}${op === "eq" ? "=" : "!="}${promString(value as string)}`);
    else out.matchers.push(`${property}${negate ? "!~" : "=~"}${promString(pattern)}`);
  }
  return out;
}

/** Whether a job name passes every job filter. */
export function jobPasses(job: string, filters: Pick<CompiledFilters, "jobTests">): boolean {
  return filters.jobTests.every((t) => t.pattern.matches(job) !== t.negate);
}

/** The query with the filters' matchers in every selector and their comparisons on the result. */
export async function filteredQuery(base: string, filters: CompiledFilters): Promise<string> {
  let q = filters.matchers.length ? await addMatchers(base, filters.matchers) : base;
  for (const c of filters.comparisons) q = `(${q}) ${c}`;
  return q;
}

/** Series of a vector or matrix answer whose job passes the job filters (series without a job stay). */
export function keepPassingJobs(res: PromResponse, filters: CompiledFilters): PromResponse {
  const data = res.data as { resultType?: string; result?: unknown } | undefined;
  if (!filters.jobTests.length || !data || !Array.isArray(data.result)) return res;
  const result = (data.result as { metric?: Record<string, string> }[]).filter(
    (s) => s.metric?.job === undefined || jobPasses(s.metric.job, filters),
  );
  return { ...res, data: { ...data, result } };
}

/** Upstream's FilteredMetricsResponse. */
export interface FilteredResponse {
  status: string;
  data: unknown;
  applied_filters: MetricFilter[];
  metadata: Record<string, unknown>;
  pagination: { limit: number; offset: number; total: number };
}

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

/** A label set as one sortable string, so pages are stable between calls. */
const seriesKey = (labels: Record<string, string> | undefined): string =>
  JSON.stringify(Object.entries(labels ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/**
 * One page of an answer: a vector or matrix is sorted by label set and cut at offset/limit (0 or
 * missing limit: 100); a series list likewise; a scalar or string is one result.
 */
export function pageOf(
  res: { status: string; data?: unknown; warnings?: string[] },
  opts: {
    limit?: number | undefined;
    offset?: number | undefined;
    filters: CompiledFilters;
    metadata: Record<string, unknown>;
  },
): FilteredResponse {
  const limit = Math.min(opts.limit || DEFAULT_LIMIT, MAX_LIMIT);
  const offset = opts.offset ?? 0;
  const data = res.data as { resultType?: string; result?: unknown } | unknown[] | undefined;
  let total = 1;
  let page: unknown = data;
  const metadata: Record<string, unknown> = {
    ...opts.metadata,
    ...(res.warnings?.length ? { warnings: res.warnings } : {}),
  };
  if (Array.isArray(data)) {
    const sorted = [...(data as Record<string, string>[])].sort((a, b) => (seriesKey(a) < seriesKey(b) ? -1 : 1));
    total = sorted.length;
    page = sorted.slice(offset, offset + limit);
  } else if (data && Array.isArray(data.result)) {
    const rows = data.result as { metric?: Record<string, string> }[];
    const sorted = [...rows].sort((a, b) => (seriesKey(a.metric) < seriesKey(b.metric) ? -1 : 1));
    total = sorted.length;
    page = { ...data, result: sorted.slice(offset, offset + limit) };
    metadata.result_type = data.resultType;
  }
  return {
    status: res.status,
    data: page,
    applied_filters: opts.filters.applied,
    metadata,
    pagination: { limit, offset, total },
  };
}
