import { Loader2Icon, Share2Icon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { FieldError, Label } from "@/components/ui/label";
import { useConnectedPeersQuery } from "@/data/federation/connected-peers-query";
import { useProposalShareMutation } from "@/data/governance/proposal-mutations";
import type { Proposal } from "@/data/governance/types";
import { showToast } from "@/lib/toast";

/** Sends the proposal to a connected console, whose orgs sign it there and send the signature back. */
export function ShareProposalCard({ p }: { p: Proposal }): ReactElement {
  const peers = useConnectedPeersQuery();
  const share = useProposalShareMutation(p.id);
  const live = (peers.data ?? []).filter((c) => c.status === "connected");
  const [chosen, setChosen] = useState("");
  const [error, setError] = useState<string>();
  const submit = (): void => {
    const conn = live.find((c) => String(c.id) === chosen);
    if (!conn) return setError("Choose a connected console");
    setError(undefined);
    share.mutate(conn.id, {
      onSuccess: () => showToast("success", "Proposal shared", { description: `${conn.node_id} can sign it now.` }),
    });
  };
  return (
    <Card data-testid="share-proposal">
      <CardHeader>
        <CardTitle className="text-base">Share with a connected console</CardTitle>
        <CardDescription>
          Its admins receive a notification, sign as their organization and send the signature back here. Sharing again
          after a recompute replaces their copy.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-2">
        {peers.isPending ? (
          <p className="text-sm text-muted-foreground">Loading connections…</p>
        ) : live.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            No connected consoles. Connect one on{" "}
            <Link to="/connect" className="text-primary hover:underline">
              Connect
            </Link>
            .
          </p>
        ) : (
          <>
            <Label htmlFor="share-connection">Console</Label>
            <select
              id="share-connection"
              className="h-9 w-full min-w-0 rounded-md border bg-background px-3 text-sm"
              value={chosen}
              onChange={(e) => {
                setChosen(e.target.value);
                setError(undefined);
              }}
            >
              <option value="">Choose a connected console</option>
              {live.map((c) => (
                <option key={c.id} value={String(c.id)}>
                  {c.node_id} ({c.peer_endpoint})
                </option>
              ))}
            </select>
          </>
        )}
        <FieldError message={error} />
      </CardContent>
      <CardFooter className="justify-end pt-4">
        <Button onClick={submit} disabled={share.isPending || live.length === 0 || p.status === "submitted"}>
          {share.isPending ? <Loader2Icon className="animate-spin" /> : <Share2Icon />} Share proposal
        </Button>
      </CardFooter>
    </Card>
  );
}
