import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { FilteredInput, FilteredMetrics } from "./metrics-filtered.service.js";
import {
  filteredBody,
  filteredQuery,
  filteredResponse,
  searchQuery,
  type FilteredBody,
  type FilteredQuery,
} from "./metrics-filtered.schema.js";
import { filtersFromBody, filtersFromQuery } from "./metrics-filters.js";
import { jobParams, nodeIdParams } from "./metrics.schema.js";

const tags = ["Metrics"];

/** A filtered GET's input: the filters in any of upstream's query-string spellings. */
export function inputFromQuery(
  q: FilteredQuery,
  known: readonly string[] = ["query", "limit", "offset"],
): FilteredInput {
  return {
    query: q.query,
    filters: filtersFromQuery(q, known),
    limit: q.limit,
    offset: q.offset,
  };
}

/** A filtered POST's input (Go clients may send no body at all: every series in scope). */
export function inputFromBody(b: FilteredBody | undefined): FilteredInput {
  return { ...(b ?? {}), filters: filtersFromBody(b?.filters) };
}

const FILTERS_HELP =
  "Filters are label matchers added to every selector of the query (eq, ne, contains, not_contains, starts_with, " +
  "ends_with, regex, not_regex, in, not_in), or comparisons of the sample value (property value: eq, ne, gt, lt, " +
  "gte, lte). Label names must be Prometheus label names and values are escaped; a bad one is a 400 naming the " +
  "filter. Series are sorted by label set and paginated (limit 100 by default).";

/** Upstream's filtered query routes and the series search (docs/metrics-queries.md). */
export function registerFilteredMetricsRoutes(app: FastifyInstance, svc: FilteredMetrics): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    "/metrics/node/:id/filtered",
    {
      config: { access: "METRICS_READ" },
      schema: {
        operationId: "getNodeMetricsFiltered",
        tags,
        summary: "Instant PromQL on one node's series, filtered and paginated",
        description: FILTERS_HELP,
        params: nodeIdParams,
        querystring: filteredQuery,
        response: { 200: filteredResponse },
      },
    },
    async (req) => svc.local({ node: req.params.id }, inputFromQuery(req.query)),
  );
  r.post(
    "/metrics/node/:id/query/filtered",
    {
      config: { access: "METRICS_READ", audit: "metrics.query" },
      schema: {
        operationId: "customQueryFiltered",
        tags,
        summary: "PromQL on one node's series (instant, or range with start/end/step), filtered and paginated",
        description: FILTERS_HELP,
        params: nodeIdParams,
        body: filteredBody,
        response: { 200: filteredResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `node:${req.params.id}`;
      return svc.local({ node: req.params.id }, inputFromBody(req.body));
    },
  );
  r.get(
    "/metrics/job/:jobName/filtered",
    {
      config: { access: "METRICS_READ" },
      schema: {
        operationId: "getJobMetricsFiltered",
        tags,
        summary: "Instant PromQL on one job's series, filtered and paginated",
        description: FILTERS_HELP,
        params: jobParams,
        querystring: filteredQuery,
        response: { 200: filteredResponse },
      },
    },
    async (req) => svc.local({ job: req.params.jobName }, inputFromQuery(req.query)),
  );
  r.post(
    "/metrics/job/:jobName/query/filtered",
    {
      config: { access: "METRICS_READ", audit: "metrics.query" },
      schema: {
        operationId: "jobCustomQueryFiltered",
        tags,
        summary: "PromQL on one job's series (instant, or range with start/end/step), filtered and paginated",
        description: FILTERS_HELP,
        params: jobParams,
        body: filteredBody,
        response: { 200: filteredResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `metrics_job:${req.params.jobName}`;
      return svc.local({ job: req.params.jobName }, inputFromBody(req.body));
    },
  );
  r.post(
    "/metrics/query/filtered",
    {
      config: { access: "METRICS_READ", audit: "metrics.query" },
      schema: {
        operationId: "globalFilteredQuery",
        tags,
        summary: "PromQL across every job of the configuration (nodes, plugins, custom jobs), filtered and paginated",
        description: `${FILTERS_HELP} Series of jobs the console does not configure (Prometheus's own) are never read.`,
        body: filteredBody,
        response: { 200: filteredResponse },
      },
    },
    async (req) => svc.local("all", inputFromBody(req.body)),
  );
  r.get(
    "/metrics/search",
    {
      config: { access: "METRICS_READ" },
      schema: {
        operationId: "searchMetrics",
        tags,
        summary: "Series whose metric name contains q, among every job of the configuration, filtered and paginated",
        description:
          "Label sets of the series seen in the last five minutes. Filters are label filters as for the filtered " +
          "queries (the sample value can't be filtered here).",
        querystring: searchQuery,
        response: { 200: filteredResponse },
      },
    },
    async (req) => {
      const q = req.query;
      return svc.search({
        q: q.q,
        filters: filtersFromQuery(q, ["q", "limit", "offset"]),
        ...(q.limit !== undefined ? { limit: q.limit } : {}),
        ...(q.offset !== undefined ? { offset: q.offset } : {}),
      });
    },
  );
}
