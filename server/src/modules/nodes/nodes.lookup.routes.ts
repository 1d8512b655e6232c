import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import { deploymentModesResponse, type DeploymentModesService } from "./nodes.deployment-modes.js";
import { nodeResponse, type NodeResponse } from "./nodes.schema.js";

const tags = ["Nodes"];

/**
 * A node's slug: the folder name the console gave it (lowercase words joined by "-", from its name,
 * at most 60 characters plus a "-<n>" suffix). The router answers 414 above 100 characters.
 */
const slugParams = lazySchema(() =>
  z
    .object({
      slug: z
        .string()
        .min(1)
        .max(80)
        .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "must be a node slug such as peer0-org1: letters, digits, . _ -")
        .describe("Node slug"),
    })
    .strict(),
);

/** Finding a node by its slug, and the deployment modes new nodes may use. */
export function registerNodeLookupRoutes(
  app: FastifyInstance,
  deps: { bySlug: (slug: string) => Promise<NodeResponse>; modes: DeploymentModesService },
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    "/nodes/slug/:slug",
    {
      config: { access: "NODE_READ" },
      schema: {
        operationId: "getNodeBySlug",
        tags,
        summary: "Get a node by its slug (as GET /nodes/{id} shows it)",
        params: slugParams,
        response: { 200: nodeResponse },
      },
    },
    async (req) => deps.bySlug(req.params.slug),
  );

  r.get(
    "/nodes/deployment-modes",
    {
      config: { access: "NODE_READ" },
      schema: {
        operationId: "getAvailableDeploymentModes",
        tags,
        summary: "The deployment modes new nodes may use here: service always, docker when the engine answers",
        response: { 200: deploymentModesResponse },
      },
    },
    async () => deps.modes.list(),
  );
}
