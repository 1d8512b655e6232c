import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import {
  besuDefaults,
  besuDefaultsQuery,
  fabricDefaults,
  fabricDefaultsQuery,
  nodeDefaults,
  type NodeDefaultsService,
} from "./nodes.defaults.js";
import type { NodeHealth } from "./nodes.health.js";
import type { NodeObserver } from "./nodes.observe.js";
import {
  healthHistory,
  healthHistoryQuery,
  healthStatus,
  idParams,
  logsQuery,
  pageQuery,
  paginatedEvents,
} from "./nodes.schema.js";

const tags = ["Nodes"];

/** Reading a node's events, logs and health, and proposing defaults for new nodes. */
export function registerNodeObserveRoutes(
  app: FastifyInstance,
  deps: { observer: NodeObserver; health: NodeHealth; defaults: NodeDefaultsService },
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { observer, health, defaults } = deps;

  r.get(
    "/nodes/:id/events",
    {
      config: { access: "NODE_READ" },
      schema: {
        operationId: "getNodeEvents",
        tags,
        summary: "A node's events, newest first",
        params: idParams,
        querystring: pageQuery,
        response: { 200: paginatedEvents },
      },
    },
    async (req) => observer.events(req.params.id, req.query.page, req.query.limit),
  );

  r.get(
    "/nodes/:id/logs",
    {
      // Followed logs stream line by line; a compressor would hold them back.
      compress: false,
      config: { access: "NODE_READ" },
      schema: {
        operationId: "tailNodesLogs",
        tags,
        summary:
          "A node's log as text: the last `tail` lines, then new lines while `follow` is on " +
          "(as Server-Sent Events when the client accepts text/event-stream)",
        params: idParams,
        querystring: logsQuery,
        response: { 200: lazySchema(() => z.string().describe("Log lines (text/plain)")) },
      },
    },
    async (req, reply) => {
      const sse = req.query.follow && (req.headers.accept ?? "").includes("text/event-stream");
      reply.type(sse ? "text/event-stream; charset=utf-8" : "text/plain; charset=utf-8");
      if (!req.query.follow) return reply.send(await observer.tail(req.params.id, req.query.tail));
      const abort = new AbortController();
      // The response closes when the client goes away (the request's own "close" fires once it is read).
      reply.raw.on("close", () => abort.abort());
      reply.header("cache-control", "no-cache").header("x-content-type-options", "nosniff");
      const stream = await observer.follow(req.params.id, req.query.tail, abort.signal, sse ? "sse" : "text");
      // Fastify sends streams as they are (no serializer); the schema documents the text it carries.
      return reply.send(stream as unknown as string);
    },
  );

  r.get(
    "/nodes/:id/health",
    {
      config: { access: "public" },
      schema: {
        operationId: "getNodeHealthStatus",
        tags,
        summary: "A node's latest health (no authentication)",
        params: idParams,
        response: { 200: healthStatus },
      },
    },
    async (req) => {
      const full = await health.status(req.params.id);
      if (req.principal && !req.principal.demo) return full;
      // Anyone may ask whether a node is up; only signed-in callers learn its name and addresses.
      return {
        nodeId: full.nodeId,
        status: full.status,
        responseTimeMs: full.responseTimeMs,
        lastChecked: full.lastChecked,
      };
    },
  );

  r.get(
    "/nodes/:id/health/history",
    {
      config: { access: "public" },
      schema: {
        operationId: "getNodeHealthHistory",
        tags,
        summary: "A node's stored health checks (no authentication)",
        params: idParams,
        querystring: healthHistoryQuery,
        response: { 200: healthHistory },
      },
    },
    async (req) => {
      const full = await health.history(req.params.id, req.query);
      if (req.principal && !req.principal.demo) return full;
      const { nodeName: _name, platform: _platform, ...rest } = full;
      return {
        ...rest,
        healthchecks: full.healthchecks.map((c) => ({
          checkedAt: c.checkedAt,
          status: c.status,
          responseTimeMs: c.responseTimeMs,
        })),
      };
    },
  );

  for (const kind of ["peer", "orderer"] as const) {
    r.get(
      `/nodes/defaults/fabric-${kind}`,
      {
        config: { access: "NODE_READ" },
        schema: {
          operationId: kind === "peer" ? "getFabricPeerDefaults" : "getFabricOrdererDefaults",
          tags,
          summary: `Free ports and addresses for a new ${kind}`,
          response: { 200: nodeDefaults },
        },
      },
      async () => defaults.fabricNode(kind),
    );
  }

  r.get(
    "/nodes/defaults/fabric",
    {
      config: { access: "NODE_READ" },
      schema: {
        operationId: "getFabricNodesDefaults",
        tags,
        summary: "Free ports and addresses for several new peers and orderers",
        querystring: fabricDefaultsQuery,
        response: { 200: fabricDefaults },
      },
    },
    async (req) => defaults.fabricNodes(req.query.peerCount, req.query.ordererCount, req.query.mode),
  );

  r.get(
    "/nodes/defaults/besu-node",
    {
      config: { access: "NODE_READ" },
      schema: {
        operationId: "getBesuNodeDefaults",
        tags,
        summary: "Free ports for new Besu nodes",
        querystring: besuDefaultsQuery,
        response: { 200: besuDefaults },
      },
    },
    async (req) => defaults.besu(req.query.besuNodes),
  );
}
