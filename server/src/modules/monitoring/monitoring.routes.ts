import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { NodeHealth } from "../nodes/nodes.health.js";
import { healthStatus, idParams } from "../nodes/nodes.schema.js";
import { checkAllResponse, nodeCheckResponse, pingResponse } from "./monitoring.schema.js";

const tags = ["Monitoring"];

type Status = Awaited<ReturnType<NodeHealth["checkNow"]>>["status"];
const count = (list: { status: Status }[], status: Status): number => list.filter((s) => s.status === status).length;

/**
 * Upstream's monitoring calls, served by the nodes' health checks (nodes.health.ts): reads answer the
 * stored checks, the two triggers probe the nodes now. Monitored nodes are the RUNNING ones, as for
 * the poller.
 */
export function registerMonitoringRoutes(app: FastifyInstance, health: NodeHealth): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    "/monitoring/health/ping",
    {
      config: { access: "NODE_READ" },
      schema: {
        operationId: "pingAllNodes",
        tags,
        summary: "The latest health of every monitored node, with counts (nodes never checked are checked now)",
        response: { 200: pingResponse },
      },
    },
    async () => {
      const nodes = await health.statuses();
      const healthy = count(nodes, "healthy");
      return {
        status: healthy === nodes.length ? ("healthy" as const) : ("degraded" as const),
        total: nodes.length,
        healthy,
        unhealthy: count(nodes, "unhealthy"),
        unreachable: count(nodes, "unreachable"),
        nodes,
      };
    },
  );

  r.get(
    "/monitoring/nodes/:id/health",
    {
      config: { access: "NODE_READ" },
      schema: {
        operationId: "getNodeHealth",
        tags,
        summary: "A node's latest health check (checked now when it has none)",
        params: idParams,
        response: { 200: healthStatus },
      },
    },
    async (req) => health.status(req.params.id),
  );

  r.post(
    "/monitoring/health/check-all",
    {
      config: { access: "NODE_EXECUTE", audit: "node.health_check_all" },
      schema: {
        operationId: "triggerAllNodesCheck",
        tags,
        summary: "Probe every monitored node now and store the results",
        response: { 200: checkAllResponse },
      },
    },
    async (req) => {
      const nodes = await health.checkAll();
      const counts = {
        checked: nodes.length,
        healthy: count(nodes, "healthy"),
        unhealthy: count(nodes, "unhealthy"),
        unreachable: count(nodes, "unreachable"),
      };
      req.auditInfo.details = counts;
      return {
        message:
          `Checked ${counts.checked} nodes: ${counts.healthy} healthy, ` +
          `${counts.unhealthy} unhealthy, ${counts.unreachable} unreachable`,
        checked: String(counts.checked),
        healthy: String(counts.healthy),
        unhealthy: String(counts.unhealthy),
        unreachable: String(counts.unreachable),
      };
    },
  );

  r.post(
    "/monitoring/nodes/:id/check",
    {
      config: { access: "NODE_EXECUTE", audit: "node.health_check" },
      schema: {
        operationId: "triggerNodeCheck",
        tags,
        summary: "Probe a node now (whatever its status) and store the result",
        params: idParams,
        response: { 200: nodeCheckResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `node:${req.params.id}`;
      const s = await health.checkNow(req.params.id);
      req.auditInfo.details = { status: s.status };
      return {
        message: `Node ${s.nodeId} is ${s.status}`,
        nodeId: String(s.nodeId),
        status: s.status,
        lastChecked: s.lastChecked,
        ...(s.errorMessage ? { errorMessage: s.errorMessage } : {}),
      };
    },
  );
}
