import { Loader2Icon } from "lucide-react";
import { useState, type FormEvent, type ReactElement } from "react";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { FieldError, Label } from "@/components/ui/label";
import { useCommitProposalMutation } from "@/data/chaincode-proposals/chaincode-proposal-commit-mutation";
import type { ChaincodeProposal } from "@/data/chaincode-proposals/types";
import { useFabricNetworkNodesQuery } from "@/data/fabric-networks/fabric-network-queries";
import { showToast } from "@/lib/toast";
import { errorMessage } from "@/lib/utils";
import { commitPeers, commitReadiness } from "@/pages/networks/proposals/chaincode-proposal-view";

/**
 * Commits an approved proposal's definition on the channel through one running peer of this console
 * (it collects the approving orgs' endorsements and submits the transaction).
 */
export function CommitProposalDialog({
  proposal,
  onClose,
}: {
  proposal: ChaincodeProposal;
  onClose: () => void;
}): ReactElement {
  const nodes = useFabricNetworkNodesQuery(proposal.networkId);
  const peers = commitPeers(nodes.data);
  const commit = useCommitProposalMutation();
  const [picked, setPicked] = useState<number>();
  const [error, setError] = useState<string>();
  const peerId = picked ?? peers[0]?.id;
  const r = commitReadiness(proposal.approvals);

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    setError(undefined);
    if (proposal.definitionId === null) return setError("definition: this console has no definition of it yet");
    if (peerId === undefined) return setError("peer_id: choose a running peer of this console on the channel");
    commit.mutate(
      { definitionId: proposal.definitionId, peerId },
      {
        onSuccess: () => {
          showToast("success", `${proposal.name} ${proposal.version} committed on ${proposal.channelName}`);
          onClose();
        },
        onError: (err) => setError(errorMessage(err)),
      },
    );
  };

  return (
    <Dialog open onOpenChange={(v) => !v && !commit.isPending && onClose()}>
      <DialogContent>
        <form onSubmit={submit} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>
              Commit {proposal.name} {proposal.version}
            </DialogTitle>
            <DialogDescription>
              Sequence {proposal.sequence} on {proposal.channelName}: {r.approved} of {r.total} orgs approved.
            </DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor="commit-peer">Peer that submits the commit</Label>
            {nodes.isPending ? (
              <p className="text-sm text-muted-foreground">Loading the channel's peers…</p>
            ) : peers.length === 0 ? (
              <p className="text-sm text-muted-foreground">
                No running peer of this console has joined {proposal.channelName}.
              </p>
            ) : (
              <select
                id="commit-peer"
                className="h-9 rounded-md border bg-background px-3 text-sm"
                value={peerId}
                onChange={(e) => setPicked(Number(e.target.value))}
              >
                {peers.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.label}
                  </option>
                ))}
              </select>
            )}
          </div>
          {nodes.isError && <FieldError message={errorMessage(nodes.error)} />}
          <FieldError message={error} />
          <DialogFooter>
            <Button type="button" variant="outline" disabled={commit.isPending} onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={commit.isPending || peerId === undefined}>
              {commit.isPending && <Loader2Icon className="animate-spin" />} Commit
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
