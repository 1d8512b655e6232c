import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { MetricsFederation } from "../federation/federation.metrics.js";
import { connectionParams } from "../federation/federation.metrics.schema.js";
import { filteredBody, filteredQuery, filteredResponse } from "./metrics-filtered.schema.js";
import { inputFromBody, inputFromQuery } from "./metrics-filtered.routes.js";
import { ALL_SERIES, type FilteredMetrics } from "./metrics-filtered.service.js";
import { jobRangeQuery, queryResult } from "./metrics.schema.js";

const tags = ["Metrics"];

const CONNECTION_HELP =
  "The connection is a federation peer (GET /node/connected-peers: its id or node id). The query travels over " +
  "the signed console-to-console channel and that console answers from its own Prometheus, confined to its " +
  "node jobs, only while it grants this console metrics federation (403 otherwise; 404 for an unknown " +
  "connection, 409 for a revoked one, 503 when it runs no Prometheus).";

/**
 * Upstream's /metrics/connection/{id}/* reads (all series, range, filtered): a connection is a
 * connected console, asked through metrics federation (decision 42); nothing is read locally.
 */
export function registerConnectionMetricsRoutes(
  app: FastifyInstance,
  deps: { federation: Pick<MetricsFederation, "query">; filtered: FilteredMetrics },
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { federation, filtered } = deps;

  r.get(
    "/metrics/connection/:id/metrics",
    {
      config: { access: "METRICS_READ" },
      schema: {
        operationId: "getConnectionMetrics",
        tags,
        summary: "Every series of a connected console's nodes (instant), as far as it grants this console",
        description: CONNECTION_HELP,
        params: connectionParams,
        response: { 200: queryResult },
      },
    },
    async (req) => federation.query(req.params.id, { query: ALL_SERIES }),
  );
  r.get(
    "/metrics/connection/:id/range",
    {
      config: { access: "METRICS_READ" },
      schema: {
        operationId: "getConnectionMetricsRange",
        tags,
        summary: "Range PromQL on a connected console's node series, as far as it grants this console",
        description: CONNECTION_HELP,
        params: connectionParams,
        querystring: jobRangeQuery,
        response: { 200: queryResult },
      },
    },
    async (req) => federation.query(req.params.id, req.query),
  );
  r.get(
    "/metrics/connection/:id/filtered",
    {
      config: { access: "METRICS_READ" },
      schema: {
        operationId: "getConnectionMetricsFiltered",
        tags,
        summary: "Instant PromQL on a connected console's node series, filtered and paginated",
        description: `${CONNECTION_HELP} Filters work as for GET /metrics/node/{id}/filtered.`,
        params: connectionParams,
        querystring: filteredQuery,
        response: { 200: filteredResponse },
      },
    },
    async (req) => filtered.remote(federation, req.params.id, inputFromQuery(req.query)),
  );
  r.post(
    "/metrics/connection/:id/query/filtered",
    {
      config: { access: "METRICS_READ", audit: "metrics.query" },
      schema: {
        operationId: "connectionCustomQueryFiltered",
        tags,
        summary: "PromQL on a connected console's node series (instant or range), filtered and paginated",
        description: `${CONNECTION_HELP} Filters work as for POST /metrics/node/{id}/query/filtered.`,
        params: connectionParams,
        body: filteredBody,
        response: { 200: filteredResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `federation_peer:${req.params.id}`;
      return filtered.remote(federation, req.params.id, inputFromBody(req.body));
    },
  );
}
