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
import { FieldError } from "@/components/ui/label";
import type { ConnectedPeer } from "@/data/federation/types";
import { useNetworkShareMutation } from "@/data/sharing/network-share-mutation";
import type { SharePlatform } from "@/data/sharing/types";
import { showToast } from "@/lib/toast";
import { RecipientChecklist } from "@/pages/shared-networks/RecipientChecklist";
import { shareOutcome } from "@/pages/shared-networks/share-view";
import { ShareTrigger } from "@/pages/shared-networks/ShareTrigger";

interface ShareTarget {
  platform: SharePlatform;
  networkId: number;
  networkName: string;
}

function ShareNetworkDialog({
  target,
  peers,
  onClose,
}: {
  target: ShareTarget;
  peers: ConnectedPeer[];
  onClose: () => void;
}): ReactElement {
  const share = useNetworkShareMutation();
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [error, setError] = useState<string>();
  const toggle = (id: number, checked: boolean): void => {
    const next = new Set(selected);
    if (checked) next.add(id);
    else next.delete(id);
    setSelected(next);
    setError(undefined);
  };
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    if (selected.size === 0) return setError("Choose at least one console");
    share.mutate(
      { platform: target.platform, networkId: target.networkId, recipients: [...selected] },
      {
        onSuccess: (result) => {
          const t = shareOutcome(result, peers);
          showToast(t.kind, t.title, { description: t.description });
          onClose();
        },
      },
    );
  };
  const what = target.platform === "fabric" ? "channel's genesis block and its orderers" : "network's genesis";
  return (
    <Dialog open onOpenChange={(v) => !v && !share.isPending && onClose()}>
      <DialogContent>
        <form onSubmit={submit} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Share {target.networkName}</DialogTitle>
            <DialogDescription>
              The {what} go to each console you choose. Its operators can then accept it on their Shared Networks page.
            </DialogDescription>
          </DialogHeader>
          <RecipientChecklist peers={peers} selected={selected} onToggle={toggle} />
          <FieldError message={error} />
          <DialogFooter>
            <Button type="button" variant="outline" disabled={share.isPending} onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={share.isPending}>
              {share.isPending && <Loader2Icon className="animate-spin" />}
              Share{selected.size > 0 ? ` with ${selected.size}` : ""}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/**
 * The Share action of a network page: picks connected consoles and sends them the network. With no
 * connection to send to it stays disabled and says where connections are made.
 */
export function ShareNetworkButton(target: ShareTarget): ReactElement {
  return (
    <ShareTrigger
      label="Share"
      dialog={(targets, close) => <ShareNetworkDialog target={target} peers={targets} onClose={close} />}
    />
  );
}
