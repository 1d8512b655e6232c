import { Loader2Icon, Share2Icon } from "lucide-react";
import { useState, type FormEvent, type ReactElement } from "react";
import { Link } from "react-router";
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
import { useConnectedPeersQuery } from "@/data/federation/connected-peers-query";
import type { ConnectedPeer } from "@/data/federation/types";
import { useNetworkShareMutation } from "@/data/sharing/network-share-mutation";
import type { SharePlatform } from "@/data/sharing/types";
import { showToast } from "@/lib/toast";
import { RecipientChecklist } from "@/pages/shared-networks/RecipientChecklist";
import { shareOutcome, shareTargets } from "@/pages/shared-networks/share-view";

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
  const peers = useConnectedPeersQuery();
  const [open, setOpen] = useState(false);
  const targets = shareTargets(peers.data);
  if (peers.isSuccess && targets.length === 0) {
    return (
      <span className="flex items-center gap-2">
        <Button variant="outline" disabled aria-describedby="share-unavailable">
          <Share2Icon /> Share
        </Button>
        <span id="share-unavailable" className="max-w-48 text-xs text-muted-foreground">
          No connected consoles to share with.{" "}
          <Link to="/connect" className="text-primary hover:underline">
            Connect one
          </Link>
        </span>
      </span>
    );
  }
  return (
    <>
      <Button variant="outline" disabled={!peers.isSuccess} onClick={() => setOpen(true)}>
        <Share2Icon /> Share
      </Button>
      {open && <ShareNetworkDialog target={target} peers={targets} onClose={() => setOpen(false)} />}
    </>
  );
}
