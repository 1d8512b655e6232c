import type { ReactElement } from "react";
import { Badge } from "@/components/ui/badge";
import type { DeployStatus } from "@/data/chaincodes/types";

const VARIANT: Record<DeployStatus, "success" | "warning" | "destructive" | "secondary"> = {
  running: "success",
  building: "warning",
  error: "destructive",
  stopped: "secondary",
  none: "secondary",
};
const LABEL: Record<DeployStatus, string> = {
  running: "Running",
  building: "Building",
  error: "Error",
  stopped: "Stopped",
  none: "Not deployed",
};

/** The chaincode server's state. */
export function ChaincodeStatusBadge({ status }: { status: DeployStatus }): ReactElement {
  return <Badge variant={VARIANT[status]}>{LABEL[status]}</Badge>;
}

/** Marks a definition committed on the channel by someone else (the peer CLI, another console) and adopted here. */
export function OutsideBadge(): ReactElement {
  return <Badge variant="outline">Committed outside this console</Badge>;
}
