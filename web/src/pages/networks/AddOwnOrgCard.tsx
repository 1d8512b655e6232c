import { useMutation, useQueryClient } from "@tanstack/react-query";
import { CheckCircle2Icon, Loader2Icon, PlusIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Link } from "react-router";
import { ORGANIZATION_LIST_LIMIT } from "@/app/constants";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FieldError, Label } from "@/components/ui/label";
import {
  useFabricAddOrganizationMutation,
  type AddOrganizationResult,
} from "@/data/fabric-networks/fabric-network-membership-mutations";
import { addNetworkNode, joinNode } from "@/data/fabric-networks/fabric-network-mutations";
import { useFabricChannelConfigQuery, useFabricNetworkNodesQuery } from "@/data/fabric-networks/fabric-network-queries";
import { fabricNetworkKeys } from "@/data/fabric-networks/keys";
import { useNodesQuery } from "@/data/nodes/nodes-query";
import { useOrganizationsQuery } from "@/data/organizations/organizations-query";
import { showToast } from "@/lib/toast";
import { errorMessage } from "@/lib/utils";
import { addableOwnOrgs } from "@/pages/networks/channel-membership";
import { channelOrgsOf } from "@/pages/networks/fabric-network";

/** Step 1's outcome: on the chain, or a proposal the other orgs must sign. */
function AddOutcome({ networkId, r }: { networkId: number; r: AddOrganizationResult }): ReactElement {
  if (r.outcome === "applied") {
    return (
      <p data-testid="add-org-outcome" data-outcome="applied" className="flex items-start gap-2 text-sm">
        <CheckCircle2Icon className="mt-0.5 size-4 shrink-0 text-success" />
        <span>
          {r.mspId} is a member of the channel: config block {r.configBlockNumber}, signed by {r.signedBy.join(", ")}{" "}
          (tx <span className="font-mono">{r.transactionId?.slice(0, 12)}…</span>).
        </span>
      </p>
    );
  }
  return (
    <div data-testid="add-org-outcome" data-outcome="proposed" className="grid gap-1 text-sm">
      <p>
        The channel&apos;s policy needs signatures from {r.missing.join(", ")} ({r.policy}), which this console does not
        hold. A proposal to add {r.mspId} was created
        {r.signedBy.length ? ` and signed by ${r.signedBy.join(", ")}` : ""}: share it with their consoles, and submit
        it once they have signed. Then come back to join the peers.
      </p>
      <Link to={`/networks/${networkId}/fabric/proposals/${r.proposalId}`} className="text-primary hover:underline">
        Open the proposal
      </Link>
    </div>
  );
}

/** Step 2: the org's peers, each added to the network and joined with one click, with its result. */
function JoinOrgPeers({ networkId, organizationId }: { networkId: number; organizationId: number }): ReactElement {
  const qc = useQueryClient();
  const nodes = useNodesQuery({ page: 1, limit: 1000, platform: "FABRIC" });
  const members = useFabricNetworkNodesQuery(networkId);
  const [errors, setErrors] = useState<Record<number, string>>({});
  const run = useMutation({
    mutationFn: async (nodeId: number) => {
      if (!(members.data ?? []).some((m) => m.nodeId === nodeId)) await addNetworkNode(networkId, nodeId, "peer");
      return joinNode(networkId, "peer", nodeId);
    },
    onMutate: (nodeId) => setErrors((e) => ({ ...e, [nodeId]: "" })),
    onError: (e, nodeId) => setErrors((x) => ({ ...x, [nodeId]: errorMessage(e) })),
    onSettled: () => qc.invalidateQueries({ queryKey: fabricNetworkKeys.all }),
    meta: { silent: true },
  });
  const peers = (nodes.data?.items ?? []).filter((n) => n.fabricPeer?.organizationId === organizationId);
  if (peers.length === 0) return <p className="text-sm text-muted-foreground">This organization has no peers yet.</p>;
  return (
    <ul className="grid gap-2" data-testid="org-peers">
      {peers.map((p) => {
        const status = (members.data ?? []).find((m) => m.nodeId === p.id)?.status;
        const busy = run.isPending && run.variables === p.id;
        return (
          <li key={p.id} className="grid gap-1" data-testid={`org-peer-${p.name}`} data-status={status ?? "none"}>
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <span className="font-medium">{p.name}</span>
              {status && (
                <Badge variant="outline" className="capitalize">
                  {status}
                </Badge>
              )}
              {status !== "joined" && (
                <Button size="sm" disabled={busy} onClick={() => run.mutate(p.id)} aria-label={`Join ${p.name}`}>
                  {busy && <Loader2Icon className="animate-spin" />} Add and join
                </Button>
              )}
            </div>
            <FieldError message={errors[p.id] || undefined} />
          </li>
        );
      })}
    </ul>
  );
}

/**
 * "Add an organization of this console": step 1 adds the org to the channel's application orgs
 * (a config update signed here, or a governance proposal when the channel's policy needs other
 * consoles' orgs); step 2 joins its peers. Each step shows its result.
 */
export function AddOwnOrgCard({ networkId, preselect }: { networkId: number; preselect?: number }): ReactElement {
  const orgs = useOrganizationsQuery(ORGANIZATION_LIST_LIMIT);
  const current = useFabricChannelConfigQuery(networkId, "current");
  const add = useFabricAddOrganizationMutation(networkId);
  const [chosen, setChosen] = useState(preselect ? String(preselect) : "");
  const [done, setDone] = useState<{ organizationId: number; result: AddOrganizationResult }>();
  const [error, setError] = useState<string>();
  const candidates = current.isSuccess
    ? addableOwnOrgs(orgs.data?.items ?? [], channelOrgsOf(current.data.config).peer)
    : [];
  const selected = candidates.find((o) => String(o.id) === chosen);
  const submit = (): void => {
    if (!selected) return setError("Choose an organization");
    setError(undefined);
    add.mutate(selected.id, {
      onSuccess: (result) => {
        setDone({ organizationId: selected.id, result });
        setChosen("");
        showToast(
          "success",
          result.outcome === "applied" ? "Organization added" : "Proposal created",
          result.outcome === "applied"
            ? { description: `${result.mspId} is a member of the channel. Join its peers next.` }
            : { description: `Adding ${result.mspId} needs signatures from ${result.missing.join(", ")}.` },
        );
      },
      onError: (e) => setError(errorMessage(e)),
    });
  };
  return (
    <Card data-testid="add-own-org">
      <CardHeader>
        <CardTitle className="text-base">Add an organization of this console</CardTitle>
        <CardDescription>
          1. The organization joins the channel&apos;s application organizations (a config update signed by this
          console&apos;s org admins, or a proposal when the channel&apos;s policy needs other organizations). 2. Its
          peers join.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {current.isPending ? (
          <p className="text-sm text-muted-foreground">Reading the current channel config…</p>
        ) : current.isError ? (
          <div className="grid justify-items-start gap-2">
            <p className="text-sm text-destructive">
              The current channel config could not be read (is a joined orderer running?): {current.error.message}
            </p>
            {/* A channel's orderer answers SERVICE_UNAVAILABLE until its Raft leader is elected. */}
            <Button size="sm" variant="outline" disabled={current.isFetching} onClick={() => void current.refetch()}>
              Try again
            </Button>
          </div>
        ) : candidates.length === 0 ? (
          <p className="text-sm text-muted-foreground">Every organization of this console is a member.</p>
        ) : (
          <div className="flex flex-wrap items-end gap-2">
            <div className="grid min-w-56 gap-2">
              <Label htmlFor="own-org">Organization</Label>
              <select
                id="own-org"
                className="h-9 rounded-md border bg-background px-3 text-sm"
                value={chosen}
                onChange={(e) => {
                  setChosen(e.target.value);
                  setError(undefined);
                }}
              >
                <option value="">Choose an organization</option>
                {candidates.map((o) => (
                  <option key={o.id} value={String(o.id)}>
                    {o.mspId}
                  </option>
                ))}
              </select>
            </div>
            <Button onClick={submit} disabled={add.isPending}>
              {add.isPending ? <Loader2Icon className="animate-spin" /> : <PlusIcon />}
              Add to channel
            </Button>
          </div>
        )}
        <FieldError message={error} />
        {done && <AddOutcome networkId={networkId} r={done.result} />}
        {done?.result.outcome === "applied" && (
          <div className="grid gap-2">
            <p className="text-sm font-medium">Join its peers</p>
            <JoinOrgPeers networkId={networkId} organizationId={done.organizationId} />
          </div>
        )}
      </CardContent>
    </Card>
  );
}
