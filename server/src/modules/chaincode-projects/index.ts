import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context.js";
import { registerProjectsRoutes } from "./projects.routes.js";
import { createProjectsService, type ProjectsService } from "./projects.service.js";

/** Chaincode projects: boilerplates, project folders under `<dataDir>/projects`, and their files. */
export function registerProjectsModule(api: FastifyInstance, ctx: Pick<AppContext, "db" | "config">): ProjectsService {
  const service = createProjectsService({ db: ctx.db, dir: join(ctx.config.dataDir, "projects") });
  registerProjectsRoutes(api, service);
  return service;
}
