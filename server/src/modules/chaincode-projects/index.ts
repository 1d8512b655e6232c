import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import type { Sandbox } from "../../runtime/sandbox.js";
import type { AppContext } from "../context.js";
import type { ChaincodesModule } from "../fabric-chaincodes/index.js";
import type { Operations } from "../operations/operations.js";
import { createShellSessions, type ShellSessionInfo } from "./project-shell.js";
import { registerProjectShellRoutes } from "./project-shell.routes.js";
import { registerProjectsRoutes } from "./projects.routes.js";
import { createProjectsService, type ProjectsService } from "./projects.service.js";

/**
 * Chaincode projects: boilerplates, project folders under `<dataDir>/projects`, their files, and
 * shell sessions in them (in memory: they end with the console, and on the project's deletion).
 */
export function registerProjectsModule(
  api: FastifyInstance,
  ctx: Pick<AppContext, "db" | "config" | "audit" | "auth" | "log" | "bus">,
  chaincodes: Pick<ChaincodesModule, "service" | "calls">,
  sandbox: Sandbox,
  operations?: Pick<Operations, "begin">,
): ProjectsService {
  const audit =
    (eventType: "chaincode_project.shell_open" | "chaincode_project.shell_close") =>
    (s: ShellSessionInfo, details: Record<string, unknown>) =>
      ctx.audit
        .record({
          eventType,
          outcome: "SUCCESS",
          source: "websocket",
          userId: s.userId || null,
          username: s.username,
          resource: `chaincode_project:${s.projectId}`,
          details: { sessionId: s.id, sandboxed: s.sandboxed, ...details },
        })
        .catch((err: unknown) => ctx.log.error({ err }, "could not record a shell session's audit entry"));
  const shells = createShellSessions({
    sandbox,
    onOpen: (s) => void audit("chaincode_project.shell_open")(s, { pid: s.pid }),
    // A close through DELETE or cleanup has that route's entry already.
    onClose: (c) =>
      void (c.byRequest ? undefined : audit("chaincode_project.shell_close")(c.session, { reason: c.reason })),
  });
  const service = createProjectsService({
    db: ctx.db,
    dir: join(ctx.config.dataDir, "projects"),
    chaincodes,
    beforeRemove: (id) => shells.closeProject(id),
    bus: ctx.bus,
    ...(operations ? { operations } : {}),
  });
  registerProjectsRoutes(api, service);
  registerProjectShellRoutes(api, service, shells, ctx.config.allowedOrigins);
  // A sign-out, password or role change ends the shells opened with those credentials.
  ctx.auth.onSignedOut((e) => void shells.closeUser(e));
  api.addHook("onClose", async () => shells.closeAll());
  return service;
}
