import type { ReactElement } from "react";
import type { AuditEvent, User } from "@/api/client";
import { Badge } from "@/components/ui/badge";

/** Success or Failure. */
export function OutcomeBadge({ outcome }: { outcome: string }): ReactElement {
  const ok = outcome.toUpperCase() === "SUCCESS";
  return <Badge variant={ok ? "success" : "destructive"}>{ok ? "Success" : "Failure"}</Badge>;
}

/**
 * Who acted: the acting user's name when the user list is at hand, else `user #id`. Without an
 * acting user (a failed sign-in) it is the name that was tried, else 'anonymous'.
 */
export function auditActor(e: Pick<AuditEvent, "userIdentity" | "details">, users?: readonly User[]): string {
  if (e.userIdentity !== null) {
    return users?.find((u) => u.id === e.userIdentity)?.username ?? `user #${e.userIdentity}`;
  }
  const tried = e.details.username;
  return typeof tried === "string" && tried ? tried : "anonymous";
}
