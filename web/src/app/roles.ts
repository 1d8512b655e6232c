import type { Role } from "@/api/client";

/** Who may see something. `allowed` omitted means every role; `denied` always wins. */
export interface RoleRule {
  allowed?: readonly Role[];
  denied?: readonly Role[];
}

/** Roles are compared lowercased (spec §6). */
export function normalizeRole(role: string | null | undefined): string | undefined {
  return role ? role.toLowerCase() : undefined;
}

/**
 * The role gate's decision (spec §6): visible only when there is a user with a role, the role is
 * not denied and, when an allowed list is given, the role is in it.
 */
export function isRoleAllowed(role: string | null | undefined, rule: RoleRule): boolean {
  const r = normalizeRole(role);
  if (!r) return false;
  if (rule.denied?.some((d) => d.toLowerCase() === r)) return false;
  if (rule.allowed && !rule.allowed.some((a) => a.toLowerCase() === r)) return false;
  return true;
}

export const OPERATORS: readonly Role[] = ["admin", "manager"];
export const ADMIN_VIEWER: readonly Role[] = ["admin", "viewer"];
export const ALL_ROLES: readonly Role[] = ["admin", "manager", "viewer"];
