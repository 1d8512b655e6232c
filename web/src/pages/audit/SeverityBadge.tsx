import type { ReactElement } from "react";
import { Badge } from "@/components/ui/badge";

const VARIANT: Record<string, "secondary" | "warning" | "destructive"> = {
  INFO: "secondary",
  WARNING: "warning",
  CRITICAL: "destructive",
};

export function SeverityBadge({ severity }: { severity: string }): ReactElement {
  const s = severity.toUpperCase();
  return <Badge variant={VARIANT[s] ?? "secondary"}>{s.charAt(0) + s.slice(1).toLowerCase()}</Badge>;
}
