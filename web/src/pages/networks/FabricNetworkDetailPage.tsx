import { ArrowRightIcon } from "lucide-react";
import type { ReactElement } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import { RoleGate } from "@/app/RoleGate";
import { DetailField, Mono } from "@/components/DetailField";
import { DeleteResourceButton } from "@/components/ConfirmDialog";
import { EmptyState, PageHeader, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useFabricNetworkDeleteMutation } from "@/data/fabric-networks/fabric-network-mutations";
import {
  useFabricBlocksQuery,
  useFabricChannelInfoQuery,
  useFabricNetworkQuery,
} from "@/data/fabric-networks/fabric-network-queries";
import type { FabricNetwork } from "@/data/fabric-networks/types";
import { formatDateTime } from "@/lib/utils";
import { AddOwnOrgCard } from "@/pages/networks/AddOwnOrgCard";
import { ChannelConfigTab } from "@/pages/networks/FabricChannelConfigTab";
import { NodesTab } from "@/pages/networks/FabricNetworkNodesTab";
import { AnchorPeersTab, OrganizationsTab } from "@/pages/networks/FabricNetworkOrgTabs";
import { NetworkChaincodesTab } from "@/pages/smart-contracts/NetworkChaincodesTab";
import { consensusOf, statusLabel } from "@/pages/networks/FabricNetworkTable";
import { ShareNetworkButton } from "@/pages/shared-networks/ShareNetworkButton";
import { ProposalsTab } from "@/pages/governance/ProposalsTab";

function BlocksTab({ n }: { n: FabricNetwork }): ReactElement {
  const blocks = useFabricBlocksQuery(n.id, 10);
  return (
    <Card className="gap-0 pb-0">
      <CardHeader className="flex flex-row items-center justify-between gap-2 pb-4">
        <div>
          <CardTitle className="text-base">Latest blocks</CardTitle>
          <CardDescription>
            {blocks.data ? `Height ${blocks.data.total}` : "Read from a joined node through Deliver."}
          </CardDescription>
        </div>
        <Button variant="ghost" size="sm" asChild>
          <Link to={`/networks/${n.id}/blocks`}>
            Explorer <ArrowRightIcon />
          </Link>
        </Button>
      </CardHeader>
      <div className="border-t">
        <QueryState
          query={blocks}
          isEmpty={(d) => d.blocks.length === 0}
          empty={<EmptyState title="No blocks yet" description="Join a node to read the channel's blocks." />}
        >
          {(d) => <BlockTable networkId={n.id} blocks={d.blocks} />}
        </QueryState>
      </div>
    </Card>
  );
}

/** Blocks, newest first; each row opens the block in the explorer. */
export function BlockTable({
  networkId,
  blocks,
}: {
  networkId: number;
  blocks: { number: number; hash: string; createdAt: string; transactions: { type: string }[] }[];
}): ReactElement {
  return (
    <Table data-testid="block-list">
      <TableHeader>
        <TableRow>
          <TableHead>Block</TableHead>
          <TableHead className="hidden md:table-cell">Hash</TableHead>
          <TableHead>Transactions</TableHead>
          <TableHead className="hidden sm:table-cell">Time</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {blocks.map((b) => (
          <TableRow key={b.number}>
            <TableCell>
              <Link to={`/networks/${networkId}/blocks/${b.number}`} className="font-medium hover:underline">
                Block {b.number}
              </Link>
            </TableCell>
            <TableCell className="hidden md:table-cell">
              <Mono className="block max-w-64 truncate">{b.hash}</Mono>
            </TableCell>
            <TableCell>
              {b.transactions.length}{" "}
              {[...new Set(b.transactions.map((t) => t.type))].map((t) => (
                <Badge key={t} variant="outline" className="ml-1">
                  {t}
                </Badge>
              ))}
            </TableCell>
            <TableCell className="hidden text-muted-foreground sm:table-cell">{formatDateTime(b.createdAt)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function Overview({ n }: { n: FabricNetwork }): ReactElement {
  const info = useFabricChannelInfoQuery(n.id);
  return (
    <Card>
      <CardContent>
        <dl className="grid grid-cols-2 gap-5 md:grid-cols-4">
          <DetailField label="Consensus">{consensusOf(n)}</DetailField>
          <DetailField label="Status">
            <span className="capitalize">{statusLabel(n.status)}</span>
          </DetailField>
          <DetailField label="Height">
            {info.data ? info.data.height : info.isError ? "Not joined yet" : "…"}
          </DetailField>
          <DetailField label="Created">{formatDateTime(n.createdAt)}</DetailField>
        </dl>
      </CardContent>
    </Card>
  );
}

function DeleteNetwork({ n }: { n: FabricNetwork }): ReactElement {
  return (
    <DeleteResourceButton
      mutation={useFabricNetworkDeleteMutation()}
      id={n.id}
      name={n.name}
      description="The network record is removed from ChainLaunch. Nodes keep running and keep their ledgers."
      confirmLabel="Delete network"
      deletedTitle="Network deleted"
      redirectTo="/network/fabric"
    />
  );
}

const TABS = ["nodes", "organizations", "anchor-peers", "config", "blocks", "chaincodes", "proposals"] as const;

/** One Fabric channel: nodes and joins, organizations, anchor peers, channel config, blocks and proposals. */
export function FabricNetworkDetailPage(): ReactElement {
  const id = Number(useParams().id);
  const network = useFabricNetworkQuery(id);
  // The tab is in the URL (?tab=proposals) so notification links can open it.
  const [search, setSearch] = useSearchParams();
  const asked = search.get("tab");
  const tab = TABS.find((t) => t === asked) ?? "nodes";
  const addOrg = Number(search.get("addOrg")) || undefined;
  const selectTab = (t: string): void =>
    setSearch(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete("addOrg");
        if (t === "nodes") next.delete("tab");
        else next.set("tab", t);
        return next;
      },
      { replace: true },
    );
  return (
    <QueryState query={network}>
      {(n) => (
        <div className="space-y-6">
          <PageHeader
            title={n.name}
            description={n.description || "Fabric channel"}
            actions={
              <RoleGate denied={["viewer"]}>
                <ShareNetworkButton platform="fabric" networkId={n.id} networkName={n.name} />
                <DeleteNetwork n={n} />
              </RoleGate>
            }
          />
          <Overview n={n} />
          <Tabs value={tab} onValueChange={selectTab}>
            <div className="overflow-x-auto">
              <TabsList>
                <TabsTrigger value="nodes">Nodes</TabsTrigger>
                <TabsTrigger value="organizations">Organizations</TabsTrigger>
                <TabsTrigger value="anchor-peers">Anchor peers</TabsTrigger>
                <TabsTrigger value="config">Channel config</TabsTrigger>
                <TabsTrigger value="blocks">Blocks</TabsTrigger>
                <TabsTrigger value="chaincodes">Chaincodes</TabsTrigger>
                <TabsTrigger value="proposals">Proposals</TabsTrigger>
              </TabsList>
            </div>
            <TabsContent value="nodes" className="mt-4">
              <NodesTab n={n} />
            </TabsContent>
            <TabsContent value="organizations" className="mt-4 space-y-6">
              <OrganizationsTab n={n} />
              <RoleGate denied={["viewer"]}>
                <AddOwnOrgCard
                  // A new preselection (the Nodes tab's "add the organization first") starts the card afresh.
                  key={addOrg ?? "none"}
                  networkId={n.id}
                  {...(addOrg ? { preselect: addOrg } : {})}
                />
              </RoleGate>
            </TabsContent>
            <TabsContent value="anchor-peers" className="mt-4">
              <AnchorPeersTab n={n} />
            </TabsContent>
            <TabsContent value="config" className="mt-4">
              <ChannelConfigTab n={n} />
            </TabsContent>
            <TabsContent value="blocks" className="mt-4">
              <BlocksTab n={n} />
            </TabsContent>
            <TabsContent value="chaincodes" className="mt-4">
              <NetworkChaincodesTab networkId={n.id} />
            </TabsContent>
            <TabsContent value="proposals" className="mt-4">
              <ProposalsTab networkId={n.id} />
            </TabsContent>
          </Tabs>
        </div>
      )}
    </QueryState>
  );
}
