import type { ReactElement } from "react";
import { Badge } from "@/components/ui/badge";

export function OutcomeBadge({ outcome }: { outcome: "SUCCESS" | "FAILURE" }): ReactElement {
  return (
    <Badge variant={outcome === "SUCCESS" ? "success" : "destructive"}>
      {outcome === "SUCCESS" ? "Success" : "Failure"}
    </Badge>
  );
}
