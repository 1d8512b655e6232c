import type { ReactElement } from "react";
import { Badge } from "@/components/ui/badge";
import { shareStatusBadge } from "@/pages/shared-networks/share-view";

/** A share's status: pending or accepting (amber), accepted or sent (green), rejected (grey), failed (red). */
export function ShareStatusBadge({ status }: { status: string }): ReactElement {
  const b = shareStatusBadge(status);
  return (
    <Badge variant={b.variant} data-status={status}>
      {b.label}
    </Badge>
  );
}
