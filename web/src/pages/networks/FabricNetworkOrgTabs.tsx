import { Loader2Icon } from "lucide-react";
import { useMemo, useState, type ReactElement } from "react";
import { Link } from "react-router";
import { RoleGate } from "@/app/RoleGate";
import { ORGANIZATION_LIST_LIMIT } from "@/app/constants";
import { Mono } from "@/components/DetailField";
import { EmptyState, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useFabricAnchorPeersMutation } from "@/data/fabric-networks/fabric-network-mutations";
import { useFabricChannelConfigQuery, useFabricNetworkNodesQuery } from "@/data/fabric-networks/fabric-network-queries";
import type { FabricNetwork, FabricNetworkNode } from "@/data/fabric-networks/types";
import { useOrganizationsQuery } from "@/data/organizations/organizations-query";
import { showToast } from "@/lib/toast";
import {
  anchorPeersOf,
  channelOrgRows,
  channelOrgsOf,
  creationOrgRows,
  hostPort,
  networkOrgIds,
  type ChannelOrgRow,
} from "@/pages/networks/fabric-network";

/** The MSP ID of a channel member's node, or "—" once the node is gone. */
export function mspOf(m: FabricNetworkNode): string {
  return m.node?.fabricPeer?.mspId ?? m.node?.fabricOrderer?.mspId ?? "—";
}

/** Where the org list came from: the current channel config, or the creation request while that can't be read. */
type OrgSource = "config" | "loading" | "unavailable";

/**
 * The channel's orgs from its current config block, matched to this console's orgs by MSP ID.
 * Orgs added by later config updates and imported channels only show up there; the creation request
 * is the fallback while the config loads or when no joined node can serve it.
 */
function useChannelOrgs(n: FabricNetwork): {
  orgs: ReturnType<typeof useOrganizationsQuery>;
  current: ReturnType<typeof useFabricChannelConfigQuery>;
  rows: ChannelOrgRow[];
  source: OrgSource;
} {
  const orgs = useOrganizationsQuery(ORGANIZATION_LIST_LIMIT);
  const current = useFabricChannelConfigQuery(n.id, "current");
  const held = orgs.data?.items;
  const config = current.data?.config;
  const source: OrgSource = current.isSuccess ? "config" : current.isError ? "unavailable" : "loading";
  const rows = useMemo(
    () =>
      source === "config"
        ? channelOrgRows(channelOrgsOf(config), held ?? [])
        : creationOrgRows(networkOrgIds(n.config), held ?? []),
    [source, config, held, n.config],
  );
  return { orgs, current, rows, source };
}

function SourceNote({
  source,
  className = "px-5 py-3",
}: {
  source: OrgSource;
  className?: string;
}): ReactElement | null {
  if (source === "config") return null;
  return (
    <p data-testid="orgs-source" className={`text-xs text-muted-foreground ${className}`}>
      {source === "loading"
        ? "Reading the current channel config… Showing the organizations the network was created with."
        : "The current channel config could not be read (is a joined node running?). Showing the organizations the network was created with."}
    </p>
  );
}

/** Every org in the channel; those this console does not hold are marked External. */
export function OrganizationsTab({ n }: { n: FabricNetwork }): ReactElement {
  const { orgs, rows, source } = useChannelOrgs(n);
  const members = useFabricNetworkNodesQuery(n.id);
  return (
    <Card className="gap-0 py-0">
      <SourceNote source={source} />
      <QueryState query={orgs}>
        {() => {
          if (rows.length === 0) {
            return (
              <EmptyState
                title={
                  source === "config"
                    ? "No organizations in the channel"
                    : "No organizations of this console in the channel"
                }
              />
            );
          }
          return (
            <Table data-testid="network-orgs">
              <TableHeader>
                <TableRow>
                  <TableHead>MSP ID</TableHead>
                  <TableHead>Roles</TableHead>
                  <TableHead>Nodes in channel</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.map((row) => (
                  <TableRow
                    key={row.mspId}
                    data-testid={`org-row-${row.mspId}`}
                    data-external={row.orgId === undefined ? "true" : "false"}
                  >
                    <TableCell>
                      {row.orgId !== undefined ? (
                        <Link to={`/organizations/${row.orgId}`} className="font-medium hover:underline">
                          {row.mspId}
                        </Link>
                      ) : (
                        <span className="flex items-center gap-2">
                          <span className="font-medium">{row.mspId}</span>
                          <Badge variant="secondary" title="This console does not hold this organization">
                            External
                          </Badge>
                        </span>
                      )}
                    </TableCell>
                    <TableCell className="space-x-1">
                      {row.orderer && <Badge variant="outline">Orderer</Badge>}
                      {row.peer && <Badge variant="outline">Peer</Badge>}
                    </TableCell>
                    <TableCell className="tabular-nums">
                      {(members.data ?? []).filter((m) => m.status === "joined" && mspOf(m) === row.mspId).length}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          );
        }}
      </QueryState>
    </Card>
  );
}

/** Anchor peers of the channel's peer orgs this console holds (it signs the update as that org). */
export function AnchorPeersTab({ n }: { n: FabricNetwork }): ReactElement {
  const { orgs, current, rows, source } = useChannelOrgs(n);
  const members = useFabricNetworkNodesQuery(n.id);
  const set = useFabricAnchorPeersMutation(n.id);
  const peerOrgs = rows.flatMap((r) => (r.peer && r.orgId !== undefined ? [{ id: r.orgId, mspId: r.mspId }] : []));
  const [orgId, setOrgId] = useState("");
  const org = peerOrgs.find((o) => String(o.id) === orgId) ?? peerOrgs[0];
  const peers = (members.data ?? []).filter((m) => m.role === "peer" && m.node?.fabricPeer?.organizationId === org?.id);
  const [chosen, setChosen] = useState<number[]>([]);
  const existing = org && current.data ? anchorPeersOf(current.data.config, org.mspId) : [];
  if (peerOrgs.length === 0 && !orgs.isPending && source !== "loading") {
    return (
      <Card className="gap-0 py-0">
        <SourceNote source={source} />
        <EmptyState title="No peer organizations" description="Anchor peers belong to the channel's peer orgs." />
      </Card>
    );
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Anchor peers</CardTitle>
        <CardDescription>Peers other organizations gossip with; set through a config update.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <SourceNote source={source} className="" />
        <div className="grid max-w-xs gap-2">
          <Label htmlFor="anchor-org">Organization</Label>
          <Select
            value={org ? String(org.id) : ""}
            onValueChange={(v) => {
              setOrgId(v);
              setChosen([]);
            }}
          >
            <SelectTrigger id="anchor-org" aria-label="Organization">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {peerOrgs.map((o) => (
                <SelectItem key={o.id} value={String(o.id)}>
                  {o.mspId}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div data-testid="anchor-current">
          <p className="text-sm font-medium">Current</p>
          {existing.length === 0 ? (
            <p className="text-sm text-muted-foreground">None</p>
          ) : (
            existing.map((a) => (
              <Mono key={`${a.host}:${a.port}`} className="block">
                {a.host}:{a.port}
              </Mono>
            ))
          )}
        </div>
        <div className="grid gap-1.5">
          {peers.length === 0 && <p className="text-sm text-muted-foreground">This org has no peers in the channel.</p>}
          {peers.map((m) => (
            <label key={m.nodeId} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                className="size-4 accent-primary"
                checked={chosen.includes(m.nodeId)}
                onChange={(e) =>
                  setChosen(e.target.checked ? [...chosen, m.nodeId] : chosen.filter((x) => x !== m.nodeId))
                }
              />
              {m.node?.name}{" "}
              <Mono className="text-xs text-muted-foreground">{m.node?.fabricPeer?.externalEndpoint}</Mono>
            </label>
          ))}
        </div>
      </CardContent>
      <RoleGate denied={["viewer"]}>
        <CardFooter className="justify-end">
          <Button
            disabled={!org || set.isPending}
            onClick={() => {
              if (!org) return;
              const anchorPeers = peers
                .filter((m) => chosen.includes(m.nodeId))
                .map((m) => hostPort(m.node?.fabricPeer?.externalEndpoint))
                .filter((a): a is { host: string; port: number } => Boolean(a));
              set.mutate(
                { organizationId: org.id, anchorPeers },
                {
                  onSuccess: (r) =>
                    showToast("success", "Anchor peers set", {
                      description: `${org.mspId}: ${anchorPeers.length} anchor peer(s)${r.transactionId ? `, tx ${r.transactionId.slice(0, 12)}…` : ""}.`,
                    }),
                },
              );
            }}
          >
            {set.isPending && <Loader2Icon className="animate-spin" />}
            Set anchor peers
          </Button>
        </CardFooter>
      </RoleGate>
    </Card>
  );
}
