import type { Principal } from "./principal.js";
import type { RouteAccess } from "./permissions.js";
import type { AuditEventType } from "../modules/audit/audit.types.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Who may call the route. Every route must declare it; registration fails otherwise. */
    access?: RouteAccess;
    /** The audit event a mutation records (success or failure) as its response is sent. */
    audit?: AuditEventType;
  }
  interface FastifyRequest {
    principal: Principal | null;
    /** Filled by handlers: what the audited mutation touched, and safe details. Never secrets. */
    auditInfo: { resource?: string; details?: Record<string, unknown>; userId?: number; username?: string };
    /** Set when the auth layer already recorded the outcome (e.g. permission denied). */
    auditDone: boolean;
  }
}
