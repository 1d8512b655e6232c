import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context.js";
import { createTemplatesRepo } from "./templates.repo.js";
import { registerTemplateReadRoutes } from "./templates.routes.js";
import { createTemplatesService, type TemplatesService } from "./templates.service.js";
import { registerTemplateWriteRoutes } from "./templates.write.routes.js";

/** Node templates (upstream's /templates). The built-in templates are seeded when the app is ready. */
export function registerTemplatesModule(
  api: FastifyInstance,
  ctx: Pick<AppContext, "db" | "dialect" | "log">,
): TemplatesService {
  const service = createTemplatesService({ repo: createTemplatesRepo(ctx.db, ctx.dialect) });
  registerTemplateReadRoutes(api, service);
  registerTemplateWriteRoutes(api, service);
  api.addHook("onReady", async () => {
    const added = await service.seedBuiltins();
    if (added > 0) ctx.log.info({ added }, "built-in node templates seeded");
  });
  return service;
}
