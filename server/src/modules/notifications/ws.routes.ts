import type { FastifyInstance, FastifyRequest } from "fastify";
import type { WsHub } from "../../events/ws-hub.js";
import { crossSiteProblem } from "../../http/auth-hooks.js";
import { ForbiddenError } from "../../http/errors.js";

const MAX_MESSAGE_BYTES = 4096;

/**
 * A browser always sends `Origin` (and `Sec-Fetch-Site`) with a websocket upgrade, and the cookie along
 * with it: a page on another site could otherwise read a signed-in user's live events. Clients that
 * send neither (the CLI, scripts) authenticate with Basic or an API key and are let through.
 */
function assertSameOriginUpgrade(req: FastifyRequest, allowedOrigins: readonly string[]): void {
  const problem = crossSiteProblem(req, allowedOrigins, { requireProof: false });
  if (problem) throw new ForbiddenError(`websocket refused: ${problem}`);
}

/**
 * The live channel. Authenticated like every API route (the auth hook runs before the upgrade).
 * Clients send `{"type":"ping"}` and get `{"type":"pong"}`; the server pushes notifications and events.
 */
export function registerWsRoute(app: FastifyInstance, hub: WsHub, allowedOrigins: readonly string[] = []): void {
  app.get(
    "/ws",
    {
      websocket: true,
      config: { access: "self" },
      schema: { hide: true },
      preValidation: async (req) => assertSameOriginUpgrade(req, allowedOrigins),
    },
    (socket, req) => {
      const userId = req.principal!.userId;
      // Closed when these credentials end: logout, password or role change, deletion.
      const remove = hub.add(userId, socket, req.principal!.sessionId);
      socket.on("message", (raw: Buffer) => {
        if (raw.length > MAX_MESSAGE_BYTES) return socket.close(1009, "message too large");
        let msg: { type?: unknown };
        try {
          msg = JSON.parse(raw.toString("utf8")) as { type?: unknown };
        } catch {
          socket.send(JSON.stringify({ type: "error", message: "messages must be JSON" }));
          return;
        }
        if (msg.type === "ping") socket.send(JSON.stringify({ type: "pong", timestamp: new Date().toISOString() }));
      });
      socket.on("close", remove);
      socket.send(JSON.stringify({ type: "hello", user: { id: userId, username: req.principal!.username } }));
    },
  );
}
