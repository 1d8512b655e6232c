import type { FastifyRequest } from "fastify";
import { isAllowed } from "./auth-hooks.js";
import { ForbiddenError } from "./errors.js";
import { PERMISSIONS, roleHas } from "./permissions.js";

/**
 * Whether the caller may define commands the console runs on its host (HOST_COMMAND, admin only).
 * A manager operates networks, not the machine: a custom plugin process, a compose file, a prebuilt
 * chaincode executable or a host folder copied as chaincode source runs as the console's OS user,
 * which can read the master key and the database. An API key acts with the narrower of its role and
 * its owner's, as for any route.
 */
export function mayDefineHostCommands(req: FastifyRequest): boolean {
  return isAllowed("HOST_COMMAND", req.principal, "POST");
}

/**
 * Refuses a request that defines a host command: 403 whose message says what and why, with the same
 * `details` as a route-level refusal. The route's audit entry (FAILURE, 403) records the refusal
 * with `details.refused = "HOST_COMMAND"` and the field, so the log says why.
 */
export function hostCommandRefusal(req: FastifyRequest, field: string, what: string): ForbiddenError {
  const p = req.principal;
  const role = !p ? "anonymous" : roleHas(p.role, "HOST_COMMAND") ? p.ownerRole : p.role;
  req.auditInfo.details = { ...req.auditInfo.details, refused: "HOST_COMMAND", field };
  return new ForbiddenError(
    `${field}: ${what} runs commands on the host; only an admin may do it (your role is ${role})`,
    {
      permission: "HOST_COMMAND",
      requiredRoles: [...PERMISSIONS.HOST_COMMAND.roles],
      role,
      field,
    },
  );
}

/** Throws {@link hostCommandRefusal} unless the caller may define host commands. */
export function assertHostCommandAllowed(req: FastifyRequest, field: string, what: string): void {
  if (!mayDefineHostCommands(req)) throw hostCommandRefusal(req, field, what);
}
