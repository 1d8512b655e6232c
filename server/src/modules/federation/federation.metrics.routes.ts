import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { labelValuesResponse, queryBody, queryResult } from "../metrics/metrics.schema.js";
import type { MetricsFederation } from "./federation.metrics.js";
import { METRICS_PATHS } from "./federation.metrics.js";
import {
  connectionLabelParams,
  connectionLabelValuesQuery,
  connectionParams,
  metricsFederationBody,
  metricsFederationResponse,
  metricsLabelValuesWire,
  metricsQueryWire,
} from "./federation.metrics.schema.js";
import { signatureHeaders, type SignedRoutes } from "./federation.inbound.routes.js";

/**
 * The operator's side of metrics federation: the grant (`POST /node/metrics-federation`, upstream's
 * shape) and queries of a connected console's node metrics (`/metrics/connection/{id}/*`).
 */
export function registerMetricsFederationRoutes(app: FastifyInstance, mf: MetricsFederation): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    "/node/metrics-federation",
    {
      config: { access: "FEDERATION_MANAGE", audit: "federation.metrics_federation" },
      schema: {
        operationId: "metricsFederation",
        tags: ["NodeSharing"],
        summary: "Grant (or withdraw) a connected console read access to this console's node metrics",
        body: metricsFederationBody,
        response: { 200: metricsFederationResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `federation_peer:${req.body.peer_node_id}`;
      req.auditInfo.details = { metrics_federation: req.body.metrics_federation };
      return mf.setGrant(req.body.peer_node_id, req.body.metrics_federation);
    },
  );
  r.post(
    "/metrics/connection/:id/query",
    {
      config: { access: "METRICS_READ", audit: "metrics.query" },
      schema: {
        operationId: "connectionCustomQuery",
        tags: ["Metrics"],
        summary: "Run PromQL on a connected console's node metrics, as far as it grants this console",
        params: connectionParams,
        body: queryBody,
        response: { 200: queryResult },
      },
    },
    async (req) => {
      req.auditInfo.resource = `federation_peer:${req.params.id}`;
      return mf.query(req.params.id, req.body);
    },
  );
  r.get(
    "/metrics/connection/:id/label/:label/values",
    {
      config: { access: "METRICS_READ" },
      schema: {
        operationId: "getConnectionLabelValues",
        tags: ["Metrics"],
        summary: "Values of a label among a connected console's node metrics, as far as it grants this console",
        params: connectionLabelParams,
        querystring: connectionLabelValuesQuery,
        response: { 200: labelValuesResponse },
      },
    },
    async (req) => {
      const m = req.query.match;
      return mf.labelValues(req.params.id, req.params.label, m === undefined ? [] : Array.isArray(m) ? m : [m]);
    },
  );
}

/** The signed routes another console queries this one's node metrics on, when this console grants it. */
export function metricsInboundRoutes(mf: MetricsFederation): SignedRoutes {
  return (f, sender) => {
    const r = f.withTypeProvider<ZodTypeProvider>();
    r.post(
      METRICS_PATHS.query,
      {
        config: { access: "public", audit: "federation.metrics_query_received" },
        schema: {
          operationId: "federationMetricsQuery",
          tags: ["Federation"],
          summary: "Console to console: PromQL on this console's node metrics, if it grants the sender (signed)",
          headers: signatureHeaders,
          body: metricsQueryWire,
          response: { 200: queryResult },
        },
      },
      async (req) => mf.receiveQuery(sender(req), req.body),
    );
    r.post(
      METRICS_PATHS.labelValues,
      {
        config: { access: "public", audit: "federation.metrics_query_received" },
        schema: {
          operationId: "federationMetricsLabelValues",
          tags: ["Federation"],
          summary:
            "Console to console: label values among this console's node metrics, if it grants the sender (signed)",
          headers: signatureHeaders,
          body: metricsLabelValuesWire,
          response: { 200: labelValuesResponse },
        },
      },
      async (req) => mf.receiveLabelValues(sender(req), req.body.label, req.body.match),
    );
  };
}
