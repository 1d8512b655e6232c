import type { ReactElement, ReactNode } from "react";
import type { Role } from "@/api/client";
import { isRoleAllowed } from "@/app/roles";
import { useMeQuery } from "@/data/auth/me-query";

export interface RoleGateProps {
  allowed?: readonly Role[];
  denied?: readonly Role[];
  fallback?: ReactNode;
  children: ReactNode;
}

/**
 * Shows its children only when the user exists, has a role, the role is not denied and (if given)
 * is allowed; otherwise the fallback (or nothing). Renders nothing while the user loads (spec §6).
 */
export function RoleGate({ allowed, denied, fallback = null, children }: RoleGateProps): ReactElement | null {
  const me = useMeQuery();
  if (me.isPending) return null;
  const rule = { ...(allowed ? { allowed } : {}), ...(denied ? { denied } : {}) };
  if (!me.data || !isRoleAllowed(me.data.role, rule)) return <>{fallback}</>;
  return <>{children}</>;
}
