import type { ReactElement } from "react";
import { Badge } from "@/components/ui/badge";
import type { Proposal } from "@/data/governance/types";
import { displayStatus, STATUS_LABEL, STATUS_VARIANT } from "@/pages/governance/proposal-view";

/** Pending, Stale (recompute it) or Submitted. */
export function ProposalStatusBadge({ p }: { p: Pick<Proposal, "status" | "stale"> }): ReactElement {
  const s = displayStatus(p);
  return <Badge variant={STATUS_VARIANT[s]}>{STATUS_LABEL[s]}</Badge>;
}
