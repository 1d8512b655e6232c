import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context.js";
import type { ChaincodesModule } from "../fabric-chaincodes/index.js";
import { registerProjectsRoutes } from "./projects.routes.js";
import { createProjectsService, type ProjectsService } from "./projects.service.js";

/** Chaincode projects: boilerplates, project folders under `<dataDir>/projects`, and their files. */
export function registerProjectsModule(
  api: FastifyInstance,
  ctx: Pick<AppContext, "db" | "config">,
  chaincodes: Pick<ChaincodesModule, "service" | "calls">,
): ProjectsService {
  const service = createProjectsService({ db: ctx.db, dir: join(ctx.config.dataDir, "projects"), chaincodes });
  registerProjectsRoutes(api, service);
  return service;
}
