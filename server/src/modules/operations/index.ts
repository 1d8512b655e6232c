import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context.js";
import { backupProgressMapper } from "./backup-progress.js";
import { registerOperationsRoutes } from "./operations.routes.js";
import { createOperations, type Operations } from "./operations.js";

export type { OperationHandle, Operations, OperationState } from "./operations.js";
export { operationDetail, operationPhase, tracked, withOperation } from "./operation-scope.js";

/**
 * Long operations with phases and elapsed time, live over the bus and readable after a reload.
 * Backups report through their own `backup.progress` events (mapped here); project runs and
 * chaincode steps call the registry this returns.
 */
export function registerOperationsModule(api: FastifyInstance, ctx: Pick<AppContext, "bus">): Operations {
  const ops = createOperations({ bus: ctx.bus });
  registerOperationsRoutes(api, ops);
  const unsubscribe = ctx.bus.subscribe(backupProgressMapper(ops));
  api.addHook("onClose", async () => unsubscribe());
  return ops;
}
