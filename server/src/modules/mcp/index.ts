import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context.js";
import { registerMcpRoutes } from "./mcp.routes.js";

/** The MCP server (docs/mcp.md). Tools are built on first use, once every route is registered. */
export function registerMcpModule(api: FastifyInstance, ctx: Pick<AppContext, "routes" | "openapi">): void {
  registerMcpRoutes(api, { routes: () => ctx.routes, openapi: ctx.openapi });
}
