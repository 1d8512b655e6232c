import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { WebSocket } from "ws";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import { crossSiteProblem } from "../../http/auth-hooks.js";
import { ForbiddenError, InputError } from "../../http/errors.js";
import { mayDefineHostCommands } from "../../http/host-command.js";
import type { ShellActor, ShellSessions } from "./project-shell.js";
import {
  cleanupQuery,
  cleanupResponse,
  sessionDeleted,
  sessionParams,
  sessionsResponse,
  shellClientMessage,
  shellConfig,
  shellSession,
  shellWsQuery,
} from "./project-shell.schema.js";
import { projectIdParams } from "./projects.schema.js";
import type { ProjectsService } from "./projects.service.js";

const tags = ["Shell"];
const MAX_MESSAGE_BYTES = 80 * 1024;
/** Unsent output a socket may hold before its shell is paused. */
const MAX_BUFFERED = 1024 * 1024;

/** The caller as the shell sessions see them: admins see everyone's; HOST_COMMAND may go unsandboxed. */
export function shellActor(req: FastifyRequest): ShellActor {
  const p = req.principal!;
  return {
    userId: p.userId,
    username: p.username,
    admin: p.role === "admin" && p.ownerRole === "admin",
    hostCommand: mayDefineHostCommands(req),
    sessionId: p.sessionId,
  };
}

type WsRequest = FastifyRequest<{ Params: z.infer<typeof projectIdParams>; Querystring: z.infer<typeof shellWsQuery> }>;

/**
 * Shell sessions of a project (upstream's /chaincode-projects/{id}/shell/*): a PTY in the project
 * folder, inside the sandbox, reached over a websocket. Every route needs CHAINCODE_EXECUTE (viewers
 * get 403); without a working sandbox only admins (HOST_COMMAND) get a shell, others a 403 naming why.
 */
export function registerProjectShellRoutes(
  app: FastifyInstance,
  svc: ProjectsService,
  shells: ShellSessions,
  allowedOrigins: readonly string[],
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    "/chaincode-projects/:id/shell/config",
    {
      config: { access: "CHAINCODE_EXECUTE" },
      schema: {
        operationId: "getConfig",
        tags,
        summary: "The terminal's settings, and whether the caller may open a shell here (and why not)",
        params: projectIdParams,
        response: { 200: shellConfig },
      },
    },
    async (req) => shells.config(shellActor(req), (await svc.folder(req.params.id)).dir),
  );

  r.get(
    "/chaincode-projects/:id/shell/sessions",
    {
      config: { access: "CHAINCODE_EXECUTE" },
      schema: {
        operationId: "listSessions",
        tags,
        summary: "The caller's open shell sessions of the project (an admin sees everyone's)",
        params: projectIdParams,
        response: { 200: sessionsResponse },
      },
    },
    async (req) => {
      await svc.folder(req.params.id);
      const sessions = shells.list(req.params.id, shellActor(req));
      return { sessions, count: sessions.length };
    },
  );

  r.get(
    "/chaincode-projects/:id/shell/sessions/:sessionID",
    {
      config: { access: "CHAINCODE_EXECUTE" },
      schema: {
        operationId: "getSession",
        tags,
        summary: "One shell session (404 for another user's, unless the caller is an admin)",
        params: sessionParams,
        response: { 200: shellSession },
      },
    },
    async (req) => {
      await svc.folder(req.params.id);
      return shells.get(req.params.id, req.params.sessionID, shellActor(req));
    },
  );

  r.delete(
    "/chaincode-projects/:id/shell/sessions/:sessionID",
    {
      config: { access: "CHAINCODE_EXECUTE", audit: "chaincode_project.shell_close" },
      schema: {
        operationId: "deleteSession",
        tags,
        summary: "End a shell session: its whole process group is killed",
        params: sessionParams,
        response: { 200: sessionDeleted },
      },
    },
    async (req) => {
      req.auditInfo.resource = `chaincode_project:${req.params.id}`;
      req.auditInfo.details = { sessionId: req.params.sessionID, reason: "closed" };
      await svc.folder(req.params.id);
      const s = await shells.close(req.params.id, req.params.sessionID, shellActor(req));
      req.auditInfo.details = { ...req.auditInfo.details, owner: s.username, sandboxed: s.sandboxed };
      return { message: `shell session ${s.id} ended`, sessionId: s.id };
    },
  );

  r.post(
    "/chaincode-projects/:id/shell/cleanup",
    {
      config: { access: "CHAINCODE_EXECUTE", audit: "chaincode_project.shell_cleanup" },
      schema: {
        operationId: "cleanupInactiveSessions",
        tags,
        summary: "End the caller's shell sessions of the project (an admin: everyone's) idle for `timeout` minutes",
        params: projectIdParams,
        querystring: cleanupQuery,
        response: { 200: cleanupResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `chaincode_project:${req.params.id}`;
      await svc.folder(req.params.id);
      const actor = shellActor(req);
      const ended = await shells.cleanup(req.params.id, actor, req.query.timeout * 60_000);
      req.auditInfo.details = { timeoutMinutes: req.query.timeout, sessions: ended.map((s) => s.id) };
      return {
        cleaned: ended.length,
        sessions: ended.map((s) => s.id),
        timeoutMinutes: req.query.timeout,
        remaining: shells.list(req.params.id, actor).length,
      };
    },
  );

  /** The session a socket gets: opened (or found) before the upgrade, so refusals are plain HTTP statuses. */
  const pending = new WeakMap<FastifyRequest, string>();
  // `wsHandler` rather than `websocket: true`, which would hide the operation from the OpenAPI document.
  app.route({
    method: "GET",
    url: "/chaincode-projects/:id/shell/ws",
    config: { access: "CHAINCODE_EXECUTE", audit: "chaincode_project.shell_open" },
    schema: {
      operationId: "handleWebSocket",
      tags,
      summary: "A terminal on the project: a shell in its folder, inside the sandbox, over a websocket",
      description:
        "Upgrade to a websocket. Without `sessionId` a new session opens (its id comes in the first message, " +
        '`{"type":"session",...}`); with it, the caller\'s session is attached again and its recent output ' +
        'replayed. The client sends `{"type":"input","data":"..."}`, `{"type":"resize","cols":n,"rows":n}` and ' +
        '`{"type":"ping"}`; the server sends `output`, `exit`, `error` and `pong`. A closed socket leaves the ' +
        "session running until it idles out or is deleted.",
      params: projectIdParams,
      querystring: shellWsQuery,
      response: { 200: lazySchema(() => z.string().describe("101 Switching Protocols: the websocket")) },
    },
    preHandler: async (request) => {
      const req = request as WsRequest;
      if (!req.ws) {
        throw new InputError("Upgrade: this operation is a websocket; send the upgrade headers (Upgrade: websocket)", {
          field: "Upgrade",
        });
      }
      const problem = crossSiteProblem(req, allowedOrigins, { requireProof: false });
      if (problem) throw new ForbiddenError(`websocket refused: ${problem}`);
      req.auditInfo.resource = `chaincode_project:${req.params.id}`;
      const { dir } = await svc.folder(req.params.id);
      // The history must be a real folder before the shell binds it read-only (it can't plant one then).
      await (await svc.history(req.params.id)).ensure();
      const actor = shellActor(req);
      if (req.query.sessionId) {
        pending.set(req, shells.get(req.params.id, req.query.sessionId, actor).id);
        return;
      }
      const s = await shells
        .open({
          projectId: req.params.id,
          dir,
          actor,
          ...(req.query.cols ? { cols: req.query.cols } : {}),
          ...(req.query.rows ? { rows: req.query.rows } : {}),
        })
        .catch((err: unknown) => {
          // The sandbox refused (off, missing or broken, for a non-admin): the audit entry says so.
          if (err instanceof ForbiddenError) req.auditInfo.details = { refused: "sandbox" };
          throw err;
        });
      pending.set(req, s.id);
    },
    // Reached only by a request that is not an upgrade, which the preHandler refused already.
    handler: async () => {
      throw new InputError("Upgrade: this operation is a websocket", { field: "Upgrade" });
    },
    wsHandler: (socket: WebSocket, request: FastifyRequest) => {
      const req = request as WsRequest;
      const id = pending.get(req)!;
      const send = (msg: object): void => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(msg));
      };
      let attached: ReturnType<ShellSessions["attach"]>;
      try {
        attached = shells.attach(req.params.id, id, shellActor(req), {
          output: (data) => send({ type: "output", data }),
          congested: () => socket.readyState === socket.OPEN && socket.bufferedAmount > MAX_BUFFERED,
          exit: (e) => {
            send({ type: "exit", exitCode: e.exitCode, ...(e.signal ? { signal: e.signal } : {}), reason: e.reason });
            socket.close(1000, "session ended");
          },
        });
      } catch (err) {
        send({ type: "error", message: (err as Error).message });
        socket.close(1011, "session not found");
        return;
      }
      send({ type: "session", sessionId: id, session: attached.session });
      if (req.query.sessionId && attached.scrollback) send({ type: "output", data: attached.scrollback });
      socket.on("message", (raw: Buffer) => {
        if (raw.length > MAX_MESSAGE_BYTES) return socket.close(1009, "message too large");
        let msg: z.infer<typeof shellClientMessage>;
        try {
          const parsed = shellClientMessage.safeParse(JSON.parse(raw.toString("utf8")));
          if (!parsed.success) {
            send({ type: "error", message: `message: ${parsed.error.issues[0]?.message ?? "invalid"}` });
            return;
          }
          msg = parsed.data;
        } catch {
          send({ type: "error", message: "message: must be JSON" });
          return;
        }
        if (msg.type === "input") attached.input(msg.data);
        else if (msg.type === "resize") attached.resize(msg.cols, msg.rows);
        else send({ type: "pong", timestamp: new Date().toISOString() });
      });
      socket.on("close", () => attached.detach());
    },
  });
}
