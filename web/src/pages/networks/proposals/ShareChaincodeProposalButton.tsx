import { Loader2Icon } from "lucide-react";
import { useState, type FormEvent, type ReactElement } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FieldError } from "@/components/ui/label";
import { useShareChaincodeProposalMutation } from "@/data/chaincode-proposals/chaincode-proposal-share-mutation";
import type { ChaincodeProposal } from "@/data/chaincode-proposals/types";
import type { ConnectedPeer } from "@/data/federation/types";
import { showToast } from "@/lib/toast";
import { errorMessage } from "@/lib/utils";
import { RecipientChecklist } from "@/pages/shared-networks/RecipientChecklist";
import { ShareTrigger } from "@/pages/shared-networks/ShareTrigger";

/** Recipients picked so far; the ones it was already shared with start checked. */
export function useRecipientSelection(initial: readonly number[] = []): {
  selected: ReadonlySet<number>;
  toggle: (id: number, checked: boolean) => void;
} {
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set(initial));
  const toggle = (id: number, checked: boolean): void => {
    const next = new Set(selected);
    if (checked) next.add(id);
    else next.delete(id);
    setSelected(next);
  };
  return { selected, toggle };
}

/** Sends the proposal to the chosen consoles and says how it went (the answer names failed recipients). */
export function ShareProposalForm({
  proposal,
  peers,
  onDone,
  onCancel,
  cancelLabel = "Cancel",
}: {
  proposal: Pick<ChaincodeProposal, "id" | "name" | "sharedWith">;
  peers: ConnectedPeer[];
  onDone: () => void;
  onCancel: () => void;
  cancelLabel?: string;
}): ReactElement {
  const share = useShareChaincodeProposalMutation();
  const { selected, toggle } = useRecipientSelection(
    proposal.sharedWith.filter((id) => peers.some((p) => p.id === id)),
  );
  const [error, setError] = useState<string>();
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    setError(undefined);
    if (selected.size === 0) return setError("recipients: choose at least one console");
    share.mutate(
      { proposalId: proposal.id, recipients: [...selected] },
      {
        onSuccess: (r) => {
          if (r.success) {
            showToast("success", `${proposal.name} shared`, {
              description: "Their operators can accept it in the network's Proposals tab.",
            });
            onDone();
          } else setError(r.error ?? "Some consoles did not take it");
        },
        onError: (err) => setError(errorMessage(err)),
      },
    );
  };
  return (
    <form onSubmit={submit} className="grid gap-4">
      <RecipientChecklist
        peers={peers}
        selected={selected}
        onToggle={(id, checked) => {
          toggle(id, checked);
          setError(undefined);
        }}
      />
      <FieldError message={error} />
      <div className="flex justify-end gap-2">
        <Button type="button" variant="outline" disabled={share.isPending} onClick={onCancel}>
          {cancelLabel}
        </Button>
        <Button type="submit" disabled={share.isPending}>
          {share.isPending && <Loader2Icon className="animate-spin" />}
          Share{selected.size > 0 ? ` with ${selected.size}` : ""}
        </Button>
      </div>
    </form>
  );
}

/** The Share action of a proposal row: a dialog listing the connected consoles. */
export function ShareChaincodeProposalButton({ proposal }: { proposal: ChaincodeProposal }): ReactElement {
  return (
    <ShareTrigger
      label="Share"
      dialog={(targets, close) => (
        <Dialog open onOpenChange={(v) => !v && close()}>
          <DialogContent>
            <DialogHeader>
              <DialogTitle>
                Share {proposal.name} {proposal.version}
              </DialogTitle>
              <DialogDescription>
                The definition and its source go to each console you choose; its operators accept it to install and
                approve it for their orgs.
              </DialogDescription>
            </DialogHeader>
            <ShareProposalForm proposal={proposal} peers={targets} onDone={close} onCancel={close} />
          </DialogContent>
        </Dialog>
      )}
    />
  );
}
