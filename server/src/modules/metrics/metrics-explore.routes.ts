import { access } from "node:fs/promises";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import { NotFoundError } from "../../http/errors.js";
import { sendLogFile } from "../../http/log-response.js";
import {
  jobLabelParams,
  metadataQuery,
  metadataResponse,
  metricsLogsQuery,
  nodeMetricsQuery,
  portCheckResponse,
  portParams,
} from "./metrics-filtered.schema.js";
import { ALL_SERIES } from "./metrics-filtered.service.js";
import {
  jobParams,
  labelValuesQuery,
  labelValuesResponse,
  nodeIdParams,
  queryBody,
  queryResult,
} from "./metrics.schema.js";
import type { PrometheusService } from "./prometheus.service.js";

const tags = ["Metrics"];

const asArray = (m: string | string[] | undefined): string[] => (m === undefined ? [] : Array.isArray(m) ? m : [m]);

/**
 * The rest of upstream's /metrics reads: a node's series, a job's custom query and label values,
 * metric metadata, Prometheus's log and whether a port is free for it.
 */
export function registerMetricsExploreRoutes(
  app: FastifyInstance,
  svc: Pick<PrometheusService, "scope" | "queries" | "metadata" | "portAvailable" | "logFile">,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    "/metrics/node/:id",
    {
      config: { access: "METRICS_READ" },
      schema: {
        operationId: "getNodeMetrics",
        tags,
        summary: "Instant PromQL on one node's series (default: every series of the node)",
        params: nodeIdParams,
        querystring: nodeMetricsQuery,
        response: { 200: queryResult },
      },
    },
    async (req) => {
      const job = (await svc.scope({ node: req.params.id })) as string;
      return svc.queries.run({ query: req.query.query?.trim() ? req.query.query : ALL_SERIES }, job);
    },
  );
  r.post(
    "/metrics/job/:jobName/query",
    {
      config: { access: "METRICS_READ", audit: "metrics.query" },
      schema: {
        operationId: "jobCustomQuery",
        tags,
        summary: "Run PromQL on one job's series (instant, or range with start/end/step)",
        params: jobParams,
        body: queryBody,
        response: { 200: queryResult },
      },
    },
    async (req) => {
      req.auditInfo.resource = `metrics_job:${req.params.jobName}`;
      const job = (await svc.scope({ job: req.params.jobName })) as string;
      return svc.queries.run(req.body, job);
    },
  );
  r.get(
    "/metrics/job/:jobName/label/:label/values",
    {
      config: { access: "METRICS_READ" },
      schema: {
        operationId: "getJobLabelValues",
        tags,
        summary: "Values of a label among one job's series",
        params: jobLabelParams,
        querystring: labelValuesQuery,
        response: { 200: labelValuesResponse },
      },
    },
    async (req) => {
      const job = (await svc.scope({ job: req.params.jobName })) as string;
      const res = await svc.queries.labelValues(req.params.label, asArray(req.query.match), job);
      return { status: res.status, data: Array.isArray(res.data) ? (res.data as string[]) : [] };
    },
  );
  r.get(
    "/metrics/metadata",
    {
      config: { access: "METRICS_READ" },
      schema: {
        operationId: "getMetadata",
        tags,
        summary: "Type, help and unit of the metrics Prometheus scrapes, by metric name",
        querystring: metadataQuery,
        response: { 200: metadataResponse },
      },
    },
    async (req) => {
      const res = await svc.metadata(req.query.metric, req.query.limit);
      return { status: res.status, data: (res.data ?? {}) as Record<string, Record<string, string>[]> };
    },
  );
  r.get(
    "/metrics/logs",
    {
      // Followed logs stream line by line; a compressor would hold them back.
      compress: false,
      // Readable like a node's log (NODE_READ): it says what Prometheus did, never a secret.
      config: { access: "METRICS_READ" },
      schema: {
        operationId: "tailMetricsLogs",
        tags,
        summary:
          "Prometheus's log: the last `tail` lines, then new lines while `follow` is on " +
          "(as Server-Sent Events when the client accepts text/event-stream)",
        querystring: metricsLogsQuery,
        response: { 200: lazySchema(() => z.string().describe("Log lines (text/plain or text/event-stream)")) },
      },
    },
    async (req, reply) => {
      try {
        await access(svc.logFile);
      } catch {
        throw new NotFoundError("Prometheus has no log yet: POST /metrics/deploy first");
      }
      const sse = req.query.follow && (req.headers.accept ?? "").includes("text/event-stream");
      reply.header("x-content-type-options", "nosniff");
      return sendLogFile(reply, svc.logFile, { tail: req.query.tail, follow: req.query.follow, sse });
    },
  );
  r.get(
    "/metrics/port/:port/check",
    {
      // Those who may deploy: a viewer has no use for it, and it would map the host's listening ports.
      config: { access: "METRICS_CONFIG" },
      schema: {
        operationId: "checkPortAvailability",
        tags,
        summary: "Whether Prometheus could be deployed on a port of this host (a bind test on loopback)",
        description:
          "False when a node holds the port, when the running Prometheus listens on it, or when something else " +
          "does. A port outside 1-65535 is a 400.",
        params: portParams,
        response: { 200: portCheckResponse },
      },
    },
    async (req) => ({ available: await svc.portAvailable(req.params.port) }),
  );
}
