import { CircleAlertIcon, CircleCheckIcon, ClockIcon } from "lucide-react";
import type { ReactElement } from "react";
import { Badge } from "@/components/ui/badge";
import { classifyExpiry, expiryLabel } from "@/lib/certificates/expiry";

/** Validity at a glance: green while valid, amber within 30 days of expiry, red once expired. */
export function ExpiryBadge({
  notAfter,
  notBefore,
}: {
  notAfter: Date | string | null | undefined;
  notBefore?: Date | string | null;
}): ReactElement {
  if (!notAfter) return <span className="text-muted-foreground">—</span>;
  const info = classifyExpiry(notAfter, notBefore);
  const label = expiryLabel(info);
  switch (info.status) {
    case "expired":
      return (
        <Badge variant="destructive">
          <CircleAlertIcon /> {label}
        </Badge>
      );
    case "expiring":
    case "not-yet-valid":
      return (
        <Badge variant="warning">
          <ClockIcon /> {label}
        </Badge>
      );
    default:
      return (
        <Badge variant="success">
          <CircleCheckIcon /> {label}
        </Badge>
      );
  }
}
