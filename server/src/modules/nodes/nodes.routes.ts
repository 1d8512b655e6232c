import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import {
  createNodeBody,
  createNodeQuery,
  idParams,
  listNodesQuery,
  nodeResponse,
  pageQuery,
  paginatedNodes,
  PLATFORMS,
  updateNodeBody,
} from "./nodes.schema.js";
import { assertNodeEnvAllowed } from "./node-env-policy.js";
import type { NodesService } from "./nodes.service.js";

const tags = ["Nodes"];

/** Creating, listing, changing, deleting and operating nodes. */
export function registerNodesRoutes(
  app: FastifyInstance,
  svc: NodesService,
  /** The env a node runs with now (for the admin-only variables check of an update). */
  currentEnv: (id: number) => Promise<Record<string, string>>,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    "/nodes",
    {
      config: { access: "NODE_READ" },
      schema: {
        operationId: "listNodes",
        tags,
        summary: "List nodes",
        querystring: listNodesQuery,
        response: { 200: paginatedNodes },
      },
    },
    async (req) => {
      const { page, limit, ...filter } = req.query;
      return svc.list(filter, page, limit);
    },
  );

  r.get(
    "/nodes/platform/:platform",
    {
      config: { access: "NODE_READ" },
      schema: {
        operationId: "listNodesByPlatform",
        tags,
        summary: "List nodes of one platform",
        params: lazySchema(() => z.object({ platform: z.enum(PLATFORMS).describe("FABRIC or BESU") }).strict()),
        querystring: pageQuery,
        response: { 200: paginatedNodes },
      },
    },
    async (req) => svc.list({ platform: req.params.platform }, req.query.page, req.query.limit),
  );

  r.post(
    "/nodes",
    {
      config: { access: "NODE_CREATE", audit: "node.create" },
      schema: {
        operationId: "createNode",
        tags,
        summary: "Create a Fabric peer or orderer, or a Besu node, and start it (unless ?start=false)",
        querystring: createNodeQuery,
        body: createNodeBody,
        response: { 201: nodeResponse },
      },
    },
    async (req, reply) => {
      req.auditInfo.details = { name: req.body.name, platform: req.body.blockchainPlatform };
      for (const field of ["fabricPeer", "fabricOrderer", "besuNode"] as const) {
        assertNodeEnvAllowed(req, `${field}.env`, req.body[field]?.env);
      }
      const node = await svc.create(req.body, req.query.start);
      req.auditInfo.resource = `node:${node.id}`;
      return reply.status(201).send(node);
    },
  );

  r.get(
    "/nodes/:id",
    {
      config: { access: "NODE_READ" },
      schema: {
        operationId: "getNode",
        tags,
        summary: "Get a node",
        params: idParams,
        response: { 200: nodeResponse },
      },
    },
    async (req) => svc.get(req.params.id),
  );

  r.put(
    "/nodes/:id",
    {
      config: { access: "NODE_UPDATE", audit: "node.update" },
      schema: {
        operationId: "updateNode",
        tags,
        summary: "Change a node: its config is regenerated and it restarts",
        params: idParams,
        body: updateNodeBody,
        response: { 200: nodeResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `node:${req.params.id}`;
      for (const field of ["fabricPeer", "fabricOrderer", "besuNode"] as const) {
        const env = req.body[field]?.env;
        if (env) assertNodeEnvAllowed(req, `${field}.env`, env, await currentEnv(req.params.id));
      }
      return svc.update(req.params.id, req.body);
    },
  );

  r.delete(
    "/nodes/:id",
    {
      config: { access: "NODE_DELETE", audit: "node.delete" },
      schema: {
        operationId: "deleteNode",
        tags,
        summary: "Stop a node and delete it with its files",
        params: idParams,
        response: { 204: lazySchema(() => z.null().describe("Deleted")) },
      },
    },
    async (req, reply) => {
      req.auditInfo.resource = `node:${req.params.id}`;
      const row = await svc.remove(req.params.id);
      req.auditInfo.details = { name: row.name };
      return reply.status(204).send(null);
    },
  );

  const ops = [
    ["start", "startNode", "Start a node", "node.start"],
    ["stop", "stopNode", "Stop a node (SIGTERM, then SIGKILL after a timeout)", "node.stop"],
    ["restart", "restartNode", "Restart a node", "node.restart"],
  ] as const;
  for (const [verb, operationId, summary, audit] of ops) {
    r.post(
      `/nodes/:id/${verb}`,
      {
        config: { access: "NODE_EXECUTE", audit },
        schema: { operationId, tags, summary, params: idParams, response: { 200: nodeResponse } },
      },
      async (req) => {
        req.auditInfo.resource = `node:${req.params.id}`;
        return svc[verb](req.params.id);
      },
    );
  }

  r.post(
    "/nodes/:id/certificates/renew",
    {
      config: { access: "NODE_UPDATE", audit: "node.certificates_renew" },
      schema: {
        operationId: "renewNodeCertificates",
        tags,
        summary: "Reissue a Fabric node's TLS and signing certificates and restart it",
        params: idParams,
        response: { 200: nodeResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `node:${req.params.id}`;
      return svc.renewCertificates(req.params.id);
    },
  );
}
