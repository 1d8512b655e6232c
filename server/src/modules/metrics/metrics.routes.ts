import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  defaultsResponse,
  deployBody,
  jobParams,
  jobQuery,
  jobRangeQuery,
  labelValuesQuery,
  labelValuesResponse,
  messageResponse,
  nodeIdParams,
  nodeLabelParams,
  queryBody,
  queryResult,
  statusResponse,
  targetsResponse,
} from "./metrics.schema.js";
import type { PrometheusService } from "./prometheus.service.js";

const tags = ["Metrics"];

/** /metrics/*: the managed Prometheus and queries scoped to one node's (or job's) series. */
export function registerMetricsRoutes(app: FastifyInstance, svc: PrometheusService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    "/metrics/defaults",
    {
      config: { access: "METRICS_READ" },
      schema: {
        operationId: "getDefaults",
        tags,
        summary: "Defaults for a Prometheus deployment (free ports, installed version)",
        response: { 200: defaultsResponse },
      },
    },
    async () => svc.defaults(),
  );
  r.post(
    "/metrics/deploy",
    {
      config: { access: "METRICS_CONFIG", audit: "metrics.deploy" },
      schema: {
        operationId: "deployPrometheus",
        tags,
        summary: "Deploy (or redeploy) the managed Prometheus, scraping every node",
        body: deployBody,
        response: { 200: messageResponse },
      },
    },
    async (req) => svc.deploy(req.body),
  );
  r.post(
    "/metrics/reload",
    {
      config: { access: "METRICS_CONFIG", audit: "metrics.reload" },
      schema: {
        operationId: "reloadConfiguration",
        tags,
        summary: "Regenerate the scrape configuration from the nodes and reload Prometheus",
        response: { 200: messageResponse },
      },
    },
    async () => svc.reload(),
  );
  r.post(
    "/metrics/undeploy",
    {
      config: { access: "METRICS_CONFIG", audit: "metrics.undeploy" },
      schema: {
        operationId: "undeployPrometheus",
        tags,
        summary: "Stop the managed Prometheus and remove its data",
        response: { 200: messageResponse },
      },
    },
    async () => svc.undeploy(),
  );
  r.get(
    "/metrics/status",
    {
      config: { access: "METRICS_READ" },
      schema: { operationId: "getStatus", tags, summary: "Prometheus status", response: { 200: statusResponse } },
    },
    async () => svc.status(),
  );
  r.get(
    "/metrics/targets",
    {
      config: { access: "METRICS_READ" },
      schema: {
        operationId: "getTargets",
        tags,
        summary: "Prometheus's scrape targets with their health",
        response: { 200: targetsResponse },
      },
    },
    async () => svc.targets(),
  );
  r.post(
    "/metrics/node/:id/query",
    {
      // Audited like chaincode queries; the console's charts read GET /metrics/node/{id}/range instead.
      config: { access: "METRICS_READ", audit: "metrics.query" },
      schema: {
        operationId: "customQuery",
        tags,
        summary: "Run PromQL on one node's series (instant, or range with start/end/step)",
        params: nodeIdParams,
        body: queryBody,
        response: { 200: queryResult },
      },
    },
    async (req) => svc.nodeQuery(req.params.id, req.body),
  );
  r.get(
    "/metrics/node/:id/range",
    {
      config: { access: "METRICS_READ" },
      schema: {
        operationId: "getNodeMetricsRange",
        tags,
        summary: "Range PromQL on one node's series (what the console's charts read)",
        params: nodeIdParams,
        querystring: jobRangeQuery,
        response: { 200: queryResult },
      },
    },
    async (req) => svc.nodeQuery(req.params.id, req.query),
  );
  r.get(
    "/metrics/node/:id/label/:label/values",
    {
      config: { access: "METRICS_READ" },
      schema: {
        operationId: "getLabelValues",
        tags,
        summary: "Values of a label among one node's series",
        params: nodeLabelParams,
        querystring: labelValuesQuery,
        response: { 200: labelValuesResponse },
      },
    },
    async (req) => {
      const m = req.query.match;
      const match = m === undefined ? [] : Array.isArray(m) ? m : [m];
      const res = await svc.nodeLabelValues(req.params.id, req.params.label, match);
      return { status: res.status, data: Array.isArray(res.data) ? (res.data as string[]) : [] };
    },
  );
  r.get(
    "/metrics/job/:jobName",
    {
      config: { access: "METRICS_READ" },
      schema: {
        operationId: "getJobMetrics",
        tags,
        summary: "Instant PromQL on one job's series (default query: up)",
        params: jobParams,
        querystring: jobQuery,
        response: { 200: queryResult },
      },
    },
    async (req) => svc.jobQuery(req.params.jobName, { query: req.query.query ?? "up" }),
  );
  r.get(
    "/metrics/job/:jobName/range",
    {
      config: { access: "METRICS_READ" },
      schema: {
        operationId: "getJobMetricsRange",
        tags,
        summary: "Range PromQL on one job's series",
        params: jobParams,
        querystring: jobRangeQuery,
        response: { 200: queryResult },
      },
    },
    async (req) => svc.jobQuery(req.params.jobName, req.query),
  );
}
