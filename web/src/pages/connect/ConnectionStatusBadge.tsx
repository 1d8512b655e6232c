import type { ReactElement } from "react";
import { Badge } from "@/components/ui/badge";
import type { ConnectionStatus } from "@/data/federation/types";
import { statusBadge } from "@/pages/connect/federation-view";

/** A connection's live status: connected (green), unreachable (amber) or revoked (red). */
export function ConnectionStatusBadge({ status }: { status: ConnectionStatus }): ReactElement {
  const b = statusBadge(status);
  return (
    <Badge variant={b.variant} data-status={status}>
      {b.label}
    </Badge>
  );
}
