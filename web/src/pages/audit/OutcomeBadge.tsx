import type { ReactElement } from "react";
import type { AuditEvent } from "@/api/client";
import { Badge } from "@/components/ui/badge";

/** Success or Failure. */
export function OutcomeBadge({ outcome }: { outcome: string }): ReactElement {
  const ok = outcome.toUpperCase() === "SUCCESS";
  return <Badge variant={ok ? "success" : "destructive"}>{ok ? "Success" : "Failure"}</Badge>;
}

/** Who acted: the username recorded in the details, else the user id, else '—'. */
export function auditActor(e: Pick<AuditEvent, "userIdentity" | "details">): string {
  const name = e.details.username;
  if (typeof name === "string" && name) return name;
  return e.userIdentity !== null ? `user #${e.userIdentity}` : "—";
}
