import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import { signatureHeaders } from "./federation.inbound.routes.js";
import { wireInventory } from "./federation.wire.js";
import type { UpstreamInboundDeps } from "./upstream.inbound.js";
import { externalNodesAuthBody, forwardMetricsQuery, metricsEnabledResponse, sameSender } from "./upstream.wire.js";

const tags = ["Federation"];

/**
 * upstream's signed /node/* routes (registered inside the signed context by upstreamInboundRoutes):
 * the inventory, whether the caller may read metrics, and Prometheus's /federate for a granted caller.
 */
export function registerNodeRoutes(
  f: FastifyInstance,
  sender: (req: FastifyRequest) => string,
  deps: Pick<UpstreamInboundDeps, "svc" | "external" | "node">,
): void {
  const r = f.withTypeProvider<ZodTypeProvider>();
  r.post(
    "/node/external-nodes",
    {
      config: { access: "public", audit: "federation.nodes_served" },
      schema: {
        operationId: "getExternalNodes",
        tags,
        summary: "Console to console: this console's organizations and nodes, public material only (signed)",
        headers: signatureHeaders,
        body: externalNodesAuthBody.nullish(),
        response: { 200: wireInventory },
      },
    },
    async (req) => {
      sameSender("body.node_id", req.body?.node_id, sender(req));
      await deps.svc.touchAndGet(sender(req));
      return deps.external.inventory();
    },
  );
  r.post(
    "/node/metrics-enabled",
    {
      config: { access: "public", audit: "federation.metrics_query_received" },
      schema: {
        operationId: "checkMetricsEnabled",
        tags,
        summary: "Console to console: whether the caller may read this console's metrics now (signed)",
        headers: signatureHeaders,
        body: externalNodesAuthBody.nullish(),
        response: { 200: metricsEnabledResponse },
      },
    },
    async (req) => {
      sameSender("body.node_id", req.body?.node_id, sender(req));
      await deps.svc.touchAndGet(sender(req));
      return deps.node.metricsEnabled(sender(req));
    },
  );
  r.get(
    "/node/forward-metrics",
    {
      config: { access: "public", audit: "federation.metrics_query_received" },
      schema: {
        operationId: "forwardMetrics",
        tags,
        summary: "Console to console: Prometheus's /federate over this console's node jobs, if granted (signed)",
        description:
          "The signature covers the path with its query string. 403 unless this console grants the caller metrics federation; 400 when no Prometheus runs here.",
        headers: signatureHeaders,
        querystring: forwardMetricsQuery,
        response: { 200: lazySchema(() => z.string().describe("Prometheus's text exposition format")) },
      },
    },
    async (req, reply) => {
      const m = req.query["match[]"];
      const match = m === undefined ? [] : Array.isArray(m) ? m : [m];
      req.auditInfo.details = { match };
      await deps.svc.touchAndGet(sender(req));
      const text = await deps.node.forwardMetrics(sender(req), match);
      return reply.type("text/plain; version=0.0.4; charset=utf-8").send(text);
    },
  );
}
