import { CheckIcon, Loader2Icon, UploadCloudIcon } from "lucide-react";
import type { ReactElement, ReactNode } from "react";
import { Button } from "@/components/ui/button";
import type { ChaincodeProposal } from "@/data/chaincode-proposals/types";
import { canAccept, canCommit, commitBlockedReason } from "@/pages/networks/proposals/chaincode-proposal-view";

export interface ProposalActionsProps {
  proposal: ChaincodeProposal;
  /** An accept request from this screen is running (the server's `accepting` status also counts). */
  acceptPending: boolean;
  onAccept: () => void;
  onCommit: () => void;
  /** The Share trigger (it loads the connected consoles itself). */
  share: ReactNode;
}

/**
 * A proposal row's actions for operators: Accept (long-running, so it shows its progress), Share and
 * Commit (enabled once a majority of the orgs approved). Hook-free, so the decisions are testable as is.
 */
export function ProposalActions({
  proposal: p,
  acceptPending,
  onAccept,
  onCommit,
  share,
}: ProposalActionsProps): ReactElement {
  const accepting = acceptPending || p.status === "accepting";
  const blocked = commitBlockedReason(p);
  return (
    <div className="flex flex-wrap items-center justify-end gap-2">
      {(canAccept(p) || accepting) && (
        <Button
          size="sm"
          disabled={accepting}
          aria-label={`${accepting ? "Accepting" : p.status === "failed" ? "Retry accept of" : "Accept"} ${p.name}`}
          onClick={onAccept}
        >
          {accepting ? <Loader2Icon className="animate-spin" /> : <CheckIcon />}
          {accepting ? "Accepting…" : p.status === "failed" ? "Retry accept" : "Accept"}
        </Button>
      )}
      {share}
      {p.status !== "committed" && (
        // A disabled button gets no pointer events, so the reason sits on a wrapper that does.
        <span title={blocked} data-testid={`commit-${p.id}`}>
          <Button
            size="sm"
            variant="outline"
            disabled={!canCommit(p)}
            aria-label={`Commit ${p.name}`}
            onClick={onCommit}
          >
            <UploadCloudIcon /> Commit
          </Button>
        </span>
      )}
    </div>
  );
}
