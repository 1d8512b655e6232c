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
import { Input } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import type { ConnectedPeer } from "@/data/federation/types";
import { useKeyShareMutation } from "@/data/sharing/key-share-mutation";
import { showToast } from "@/lib/toast";
import { errorMessage, formatDateTime } from "@/lib/utils";
import { parseShareExpiry } from "@/pages/keys/shared-key-view";
import { ShareTrigger } from "@/pages/shared-networks/ShareTrigger";

function ShareKeyForm({
  keyId,
  keyName,
  peers,
  onClose,
}: {
  keyId: number;
  keyName: string;
  peers: ConnectedPeer[];
  onClose: () => void;
}): ReactElement {
  const share = useKeyShareMutation();
  const [peerId, setPeerId] = useState(peers.length === 1 && peers[0] ? String(peers[0].id) : "");
  const [expiry, setExpiry] = useState("");
  const [errors, setErrors] = useState<{ peer?: string; expiry?: string; form?: string }>({});
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    const exp = parseShareExpiry(expiry);
    const next = {
      ...(peerId ? {} : { peer: "Choose a console" }),
      ...("error" in exp ? { expiry: exp.error } : {}),
    };
    setErrors(next);
    if (next.peer || next.expiry || "error" in exp) return;
    const peer = peers.find((p) => p.id === Number(peerId));
    share.mutate(
      { key_id: keyId, peer_id: Number(peerId), ...(exp.expiresAt ? { expires_at: exp.expiresAt } : {}) },
      {
        onSuccess: (r) => {
          showToast("success", "Public key shared", {
            description: `${keyName} was sent to ${peer?.node_id ?? `connection #${r.peer_id}`}${
              r.expires_at ? `, until ${formatDateTime(r.expires_at)}` : ""
            }.`,
          });
          onClose();
        },
        onError: (err) => setErrors({ form: errorMessage(err) }),
      },
    );
  };
  return (
    <form onSubmit={submit} className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Share the public key of {keyName}</DialogTitle>
        <DialogDescription>Only the public key is sent. The private key never leaves this console.</DialogDescription>
      </DialogHeader>
      <div className="grid gap-2">
        <Label htmlFor="share-key-peer">Console</Label>
        <select
          id="share-key-peer"
          className="h-9 rounded-md border bg-background px-3 text-sm"
          value={peerId}
          onChange={(e) => setPeerId(e.target.value)}
        >
          <option value="">Choose a connected console</option>
          {peers.map((p) => (
            <option key={p.id} value={p.id}>
              {p.node_id} ({p.peer_endpoint})
            </option>
          ))}
        </select>
        <FieldError message={errors.peer} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="share-key-expiry">Expires (optional)</Label>
        <Input id="share-key-expiry" type="date" value={expiry} onChange={(e) => setExpiry(e.target.value)} />
        <FieldError message={errors.expiry} />
      </div>
      <FieldError message={errors.form} />
      <DialogFooter>
        <Button type="button" variant="outline" disabled={share.isPending} onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={share.isPending}>
          {share.isPending && <Loader2Icon className="animate-spin" />} Share
        </Button>
      </DialogFooter>
    </form>
  );
}

/** "Share public key" on a key's page: one connected console, an optional expiry. */
export function ShareKeyButton({ keyId, keyName }: { keyId: number; keyName: string }): ReactElement {
  return (
    <ShareTrigger
      label="Share public key"
      dialog={(targets, close) => (
        <Dialog open onOpenChange={(v) => !v && close()}>
          <DialogContent>
            <ShareKeyForm keyId={keyId} keyName={keyName} peers={targets} onClose={close} />
          </DialogContent>
        </Dialog>
      )}
    />
  );
}
