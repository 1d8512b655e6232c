import type { FastifyInstance } from "fastify";
import type { WsHub } from "../../events/ws-hub.js";

const MAX_MESSAGE_BYTES = 4096;

/**
 * The live channel. Authenticated like every API route (the auth hook runs before the upgrade).
 * Clients send `{"type":"ping"}` and get `{"type":"pong"}`; the server pushes notifications and events.
 */
export function registerWsRoute(app: FastifyInstance, hub: WsHub): void {
  app.get("/ws", { websocket: true, config: { access: "self" }, schema: { hide: true } }, (socket, req) => {
    const userId = req.principal!.userId;
    const remove = hub.add(userId, socket);
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
  });
}
