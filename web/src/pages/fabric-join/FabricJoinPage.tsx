import { Loader2Icon } from "lucide-react";
import { useMemo, useState, type ReactElement } from "react";
import { Link, useNavigate } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import type { NodeInfo } from "@/api/client";
import { OperatorsOnly } from "@/app/OperatorsOnly";
import { ORGANIZATION_LIST_LIMIT } from "@/app/constants";
import { EmptyState, PageHeader, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { addNetworkNode, joinNode } from "@/data/fabric-networks/fabric-network-mutations";
import { fabricNetworkKeys } from "@/data/fabric-networks/keys";
import type { FabricNetwork } from "@/data/fabric-networks/types";
import { useNodesQuery } from "@/data/nodes/nodes-query";
import { useOrganizationsQuery } from "@/data/organizations/organizations-query";
import { showToast } from "@/lib/toast";
import { isAlreadyJoined } from "@/pages/networks/fabric-import";
import { OrdererImportForm } from "@/pages/networks/FabricImportForms";
import { JoinProgress, useJoinRunner } from "@/pages/networks/JoinProgress";
import { errorMessage } from "@/lib/utils";

interface Joined {
  network: Pick<FabricNetwork, "id" | "name">;
  orgId: number;
  mspId: string;
}

/** Step 2: this org's peers, RUNNING ones pre-selected; each is added to the network and joined. */
function PeerJoinStep({ joined }: { joined: Joined }): ReactElement {
  const qc = useQueryClient();
  const nodesQ = useNodesQuery({ page: 1, limit: 1000, platform: "FABRIC" });
  const peers = useMemo(
    () =>
      (nodesQ.data?.items ?? []).filter(
        (n) => n.nodeType === "FABRIC_PEER" && n.fabricPeer?.organizationId === joined.orgId,
      ),
    [nodesQ.data, joined.orgId],
  );
  const [chosen, setChosen] = useState<number[] | undefined>(undefined);
  const selected = chosen ?? peers.filter((p) => p.status === "RUNNING").map((p) => p.id);
  // Each peer is added to the network (recorded as joined if it already has the channel), then joined.
  const join = useJoinRunner(async (r) => {
    try {
      await addNetworkNode(joined.network.id, r.nodeId, r.role).catch((e: unknown) => {
        // Added on an earlier attempt: go on to the join.
        if (!/already in network/i.test(errorMessage(e))) throw e;
      });
      await joinNode(joined.network.id, r.role, r.nodeId).catch((e: unknown) => {
        if (!isAlreadyJoined(errorMessage(e))) throw e;
      });
    } finally {
      void qc.invalidateQueries({ queryKey: fabricNetworkKeys.all });
    }
  });

  const start = (): void =>
    join.start(
      peers.filter((p) => selected.includes(p.id)).map((p) => ({ nodeId: p.id, role: "peer" as const, name: p.name })),
    );

  if (join.rows.length > 0) {
    return <JoinProgress network={joined.network} rows={join.rows} running={join.running} onRetry={join.retry} />;
  }

  return (
    <Card data-testid="join-peers">
      <CardHeader>
        <CardTitle className="text-base">Join {joined.mspId} peers</CardTitle>
        <CardDescription>
          Channel {joined.network.name} is now a network of this console. Choose the peers that join it; each fetches
          the chain from the channel&apos;s orderers.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-2">
        <QueryState query={nodesQ}>
          {() =>
            peers.length === 0 ? (
              <EmptyState
                title="No peers in this organization"
                description="Create a peer for it, then add it to the network from the network's Nodes tab."
              />
            ) : (
              <div className="grid gap-1.5">
                {peers.map((p: NodeInfo) => (
                  <label key={p.id} className="flex flex-wrap items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      className="size-4 accent-primary"
                      checked={selected.includes(p.id)}
                      onChange={(e) =>
                        setChosen(e.target.checked ? [...selected, p.id] : selected.filter((x) => x !== p.id))
                      }
                    />
                    {p.name}
                    <Badge variant={p.status === "RUNNING" ? "success" : "secondary"}>{p.status}</Badge>
                    <span className="font-mono text-xs text-muted-foreground">{p.fabricPeer?.externalEndpoint}</span>
                  </label>
                ))}
              </div>
            )
          }
        </QueryState>
        <p className="text-xs text-muted-foreground">
          Orderers of this console take part once the channel&apos;s admins add them as consenters (Channel config tab).
        </p>
      </CardContent>
      <CardFooter className="justify-end gap-2 border-t pt-5">
        <Button variant="outline" asChild>
          <Link to={`/networks/${joined.network.id}/fabric`}>Skip, open the network</Link>
        </Button>
        <Button disabled={selected.length === 0 || nodesQ.isPending} onClick={start}>
          {join.running && <Loader2Icon className="animate-spin" />}
          Join selected peers
        </Button>
      </CardFooter>
    </Card>
  );
}

/**
 * Join an existing channel: read it from one of its orderers with an org of this console that
 * is a member (the network record is imported), then join that org's peers to it.
 */
function FabricJoinContent(): ReactElement {
  const navigate = useNavigate();
  const orgs = useOrganizationsQuery(ORGANIZATION_LIST_LIMIT);
  const [joined, setJoined] = useState<Joined>();
  return (
    <div className="max-w-3xl space-y-6">
      <PageHeader
        title="Join Fabric Network"
        description="Connect this console's organization and peers to a channel that already runs elsewhere."
      />
      {joined ? (
        <PeerJoinStep joined={joined} />
      ) : (
        <QueryState query={orgs}>
          {(page) =>
            page.items.length === 0 ? (
              <Card>
                <EmptyState
                  title="No organizations yet"
                  description="Create the organization that the channel's admins added, then come back."
                  action={
                    <Button asChild>
                      <Link to="/fabric/organizations">Organizations</Link>
                    </Button>
                  }
                />
              </Card>
            ) : (
              <Card>
                <CardHeader>
                  <CardTitle className="text-base">Channel</CardTitle>
                  <CardDescription>
                    The organization must already be a member of the channel (added by a config update).
                  </CardDescription>
                </CardHeader>
                <CardContent>
                  <OrdererImportForm
                    orgs={page.items}
                    submitLabel="Connect"
                    footer={
                      <Button type="button" variant="outline" onClick={() => void navigate("/networks")}>
                        Cancel
                      </Button>
                    }
                    onImported={(r, v) => {
                      const org = page.items.find((o) => String(o.id) === v.organizationId);
                      showToast("success", "Connected to channel", { description: r.message });
                      setJoined({
                        network: { id: r.networkId, name: v.channelId.trim() },
                        orgId: Number(v.organizationId),
                        mspId: org?.mspId ?? "",
                      });
                    }}
                  />
                </CardContent>
              </Card>
            )
          }
        </QueryState>
      )}
    </div>
  );
}

export function FabricJoinPage(): ReactElement {
  return (
    <OperatorsOnly what="join networks">
      <FabricJoinContent />
    </OperatorsOnly>
  );
}
