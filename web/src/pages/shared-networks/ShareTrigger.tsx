import { Share2Icon } from "lucide-react";
import { useId, useState, type ReactElement, type ReactNode } from "react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { useConnectedPeersQuery } from "@/data/federation/connected-peers-query";
import type { ConnectedPeer } from "@/data/federation/types";
import { shareTargets } from "@/pages/shared-networks/share-view";

/**
 * The button that opens a share dialog (a network's or a key's). With no connected console to share
 * with it stays disabled and says where connections are made; `dialog` gets the consoles that can
 * receive (not revoked) and a close callback.
 */
export function ShareTrigger({
  label,
  dialog,
}: {
  label: string;
  dialog: (targets: ConnectedPeer[], close: () => void) => ReactNode;
}): ReactElement {
  const peers = useConnectedPeersQuery();
  const [open, setOpen] = useState(false);
  const hintId = useId();
  const targets = shareTargets(peers.data);
  if (peers.isSuccess && targets.length === 0) {
    return (
      <span className="flex items-center gap-2">
        <Button variant="outline" disabled aria-describedby={hintId}>
          <Share2Icon /> {label}
        </Button>
        <span id={hintId} className="max-w-48 text-xs text-muted-foreground">
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
        <Share2Icon /> {label}
      </Button>
      {open && dialog(targets, () => setOpen(false))}
    </>
  );
}
