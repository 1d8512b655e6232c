import type { FastifyInstance } from "fastify";
import type { DockerRuntime } from "../../runtime/docker/index.js";
import type { AppContext } from "../context.js";
import { registerDockerEnginesRoutes } from "./docker-engines.routes.js";
import { createDockerEnginesService, type DockerEnginesService } from "./docker-engines.service.js";

/** Registered Docker engines: routes, and the runtime told of them now and after each change. */
export function registerDockerEnginesModule(
  api: FastifyInstance,
  ctx: Pick<AppContext, "db" | "log">,
  deps: { docker: DockerRuntime; masterKey: () => Uint8Array; usage: (engine: string) => Promise<string | null> },
): DockerEnginesService {
  const svc = createDockerEnginesService({ db: ctx.db, ...deps });
  registerDockerEnginesRoutes(api, svc);
  return svc;
}
