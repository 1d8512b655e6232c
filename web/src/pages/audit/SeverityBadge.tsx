import type { ReactElement } from "react";
import { Badge } from "@/components/ui/badge";

const VARIANT = { INFO: "secondary", WARNING: "warning", CRITICAL: "destructive" } as const;

export function SeverityBadge({ severity }: { severity: "INFO" | "WARNING" | "CRITICAL" }): ReactElement {
  return (
    <Badge variant={VARIANT[severity] ?? "secondary"}>{severity.charAt(0) + severity.slice(1).toLowerCase()}</Badge>
  );
}
