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
  refreshBody,
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
        description:
          "An empty or missing deployment_mode is upstream's default, docker, where this console's Docker engine " +
          "answers, and service otherwise. A port in use or held by a node is a 409 naming prometheus_port.",
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
  r.post(
    "/metrics/stop",
    {
      config: { access: "METRICS_CONFIG", audit: "metrics.stop" },
      schema: {
        operationId: "stopPrometheus",
        tags,
        summary: "Stop the managed Prometheus, keeping its settings, configuration and data",
        description:
          "Status then says stopped, and a console restart leaves it stopped. Already stopped: 200 saying so. " +
          "Not deployed: 400 PROMETHEUS_NOT_DEPLOYED.",
        response: { 200: messageResponse },
      },
    },
    async () => svc.stop(),
  );
  r.post(
    "/metrics/start",
    {
      config: { access: "METRICS_CONFIG", audit: "metrics.start" },
      schema: {
        operationId: "startPrometheus",
        tags,
        summary: "Start the stopped Prometheus with the settings it was deployed with (same port)",
        description:
          "Already running: 200 saying so. Not deployed: 400 PROMETHEUS_NOT_DEPLOYED. Its port taken meanwhile: 409 " +
          "naming prometheus_port.",
        response: { 200: messageResponse },
      },
    },
    async () => svc.start(),
  );
  r.post(
    "/metrics/refresh",
    {
      config: { access: "METRICS_CONFIG", audit: "metrics.refresh" },
      schema: {
        operationId: "refreshPrometheus",
        tags,
        summary: "Apply new settings, rewrite the scrape configuration from the nodes and reload Prometheus",
        description:
          "Fields left out, 0 or empty stay as deployed (an empty body only rewrites and reloads the configuration). " +
          "A new port or mode restarts Prometheus; a stopped Prometheus stays stopped with the new settings saved. " +
          "Not deployed: 400 PROMETHEUS_NOT_DEPLOYED.",
        body: refreshBody,
        response: { 200: messageResponse },
      },
    },
    async (req) => svc.refresh(req.body),
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
