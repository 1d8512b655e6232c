import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { operationsQuery, operationsResponse } from "./operations.schema.js";
import type { Operations } from "./operations.js";

/** The read side of long operations: what a reloaded page asks for (live changes come over the websocket). */
export function registerOperationsRoutes(app: FastifyInstance, ops: Pick<Operations, "list">): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/operations",
    {
      config: { access: "OPERATION_READ" },
      schema: {
        operationId: "listOperations",
        tags: ["Operations"],
        summary: "Running and recently finished long operations (project runs, backups, chaincode steps)",
        description:
          "Each one's phases, the current phase and when the operation and the phase started, so a page " +
          "loaded mid-way shows the same progress; every change is also published as an " +
          "`operation.progress` websocket event. Finished operations are listed for 10 minutes.",
        querystring: operationsQuery,
        response: { 200: operationsResponse },
      },
    },
    async (req) => ({
      operations: ops.list({ resource: req.query.resource, kind: req.query.kind }),
      serverTime: new Date().toISOString(),
    }),
  );
}
