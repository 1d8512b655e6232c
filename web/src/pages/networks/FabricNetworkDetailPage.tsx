import { ArrowRightIcon, Loader2Icon, PlusIcon } from "lucide-react";
import { useMemo, useState, type ReactElement } from "react";
import { useForm } from "react-hook-form";
import { Link, useParams, useSearchParams } from "react-router";
import { RoleGate } from "@/app/RoleGate";
import { CopyButton } from "@/components/CopyButton";
import { DetailField, Mono } from "@/components/DetailField";
import { ConfirmDialog, DeleteResourceButton } from "@/components/ConfirmDialog";
import { EmptyState, PageHeader, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import {
  useFabricAddNodeMutation,
  useFabricJoinMutation,
  useFabricNetworkDeleteMutation,
  useFabricUpdateConfigMutation,
} from "@/data/fabric-networks/fabric-network-mutations";
import {
  useFabricBlocksQuery,
  useFabricChannelConfigQuery,
  useFabricChannelInfoQuery,
  useFabricNetworkNodesQuery,
  useFabricNetworkQuery,
} from "@/data/fabric-networks/fabric-network-queries";
import type { FabricNetwork, FabricNetworkNode } from "@/data/fabric-networks/types";
import { useNodesQuery } from "@/data/nodes/nodes-query";
import { formErrorsFrom } from "@/lib/field-errors";
import { showToast } from "@/lib/toast";
import { formatDateTime } from "@/lib/utils";
import {
  batchDiff,
  batchOperations,
  batchSettingsOf,
  DURATION,
  JOIN_STATUS_VARIANT,
  type BatchFormValues,
  type SettingChange,
} from "@/pages/networks/fabric-network";
import { AnchorPeersTab, mspOf, OrganizationsTab } from "@/pages/networks/FabricNetworkOrgTabs";
import { NetworkChaincodesTab } from "@/pages/smart-contracts/NetworkChaincodesTab";
import { consensusOf, statusLabel } from "@/pages/networks/FabricNetworkTable";
import { AddExternalOrgCard } from "@/pages/networks/AddExternalOrgCard";
import { ShareNetworkButton } from "@/pages/shared-networks/ShareNetworkButton";
import { ProposalsTab } from "@/pages/governance/ProposalsTab";

function AddNode({ networkId, members }: { networkId: number; members: FabricNetworkNode[] }): ReactElement {
  const nodes = useNodesQuery({ page: 1, limit: 1000, platform: "FABRIC" });
  const add = useFabricAddNodeMutation(networkId);
  const [nodeId, setNodeId] = useState("");
  const taken = new Set(members.map((m) => m.nodeId));
  const candidates = (nodes.data?.items ?? []).filter((n) => !taken.has(n.id));
  const chosen = candidates.find((n) => String(n.id) === nodeId);
  return (
    <div className="flex flex-wrap items-end gap-2 border-t px-5 py-4">
      <div className="grid min-w-56 gap-2">
        <Label htmlFor="add-node">Add a node</Label>
        <Select value={nodeId} onValueChange={setNodeId}>
          <SelectTrigger id="add-node" aria-label="Node to add">
            <SelectValue placeholder={candidates.length ? "Choose a peer or orderer" : "No other Fabric nodes"} />
          </SelectTrigger>
          <SelectContent>
            {candidates.map((n) => (
              <SelectItem key={n.id} value={String(n.id)}>
                {n.name} ({n.nodeType === "FABRIC_PEER" ? "peer" : "orderer"})
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <Button
        variant="outline"
        disabled={!chosen || add.isPending}
        onClick={() =>
          chosen &&
          add.mutate(
            { nodeId: chosen.id, role: chosen.nodeType === "FABRIC_PEER" ? "peer" : "orderer" },
            {
              onSuccess: () => {
                setNodeId("");
                showToast("success", "Node added", { description: `${chosen.name} can now join the channel.` });
              },
            },
          )
        }
      >
        {add.isPending ? <Loader2Icon className="animate-spin" /> : <PlusIcon />} Add
      </Button>
    </div>
  );
}

function NodesTab({ n }: { n: FabricNetwork }): ReactElement {
  const members = useFabricNetworkNodesQuery(n.id);
  const join = useFabricJoinMutation(n.id);
  const [leaving, setLeaving] = useState<FabricNetworkNode>();
  const leavingName = leaving?.node?.name ?? `node ${leaving?.nodeId}`;
  return (
    <Card className="gap-0 py-0">
      <ConfirmDialog
        open={Boolean(leaving)}
        onOpenChange={(o) => !o && setLeaving(undefined)}
        title={`Unjoin ${leavingName}?`}
        description={
          leaving?.role === "peer"
            ? `Fabric removes a channel only from a stopped peer: ${leavingName} is stopped, ${n.name} is removed from its ledger (peer node unjoin), and it is started again.`
            : `${leavingName} leaves ${n.name} through its channel participation API and removes its copy of the ledger.`
        }
        confirmLabel="Unjoin"
        pending={join.isPending}
        onConfirm={() =>
          leaving &&
          join.mutate(
            { role: leaving.role, nodeId: leaving.nodeId, unjoin: true },
            { onSettled: () => setLeaving(undefined) },
          )
        }
      />
      <QueryState
        query={members}
        isEmpty={(d) => d.length === 0}
        empty={<EmptyState title="No nodes in this channel" description="Add a peer or orderer below." />}
      >
        {(d) => (
          <Table data-testid="network-nodes">
            <TableHeader>
              <TableRow>
                <TableHead>Node</TableHead>
                <TableHead>Role</TableHead>
                <TableHead className="hidden md:table-cell">MSP</TableHead>
                <TableHead>Join status</TableHead>
                <TableHead className="text-right">
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {d.map((m) => {
                const name = m.node?.name ?? `node ${m.nodeId}`;
                const busy = join.isPending && join.variables.nodeId === m.nodeId;
                return (
                  <TableRow key={m.id} data-testid={`member-row-${name}`} data-status={m.status}>
                    <TableCell>
                      {m.node ? (
                        <Link to={`/nodes/${m.nodeId}`} className="font-medium hover:underline">
                          {name}
                        </Link>
                      ) : (
                        <span className="text-muted-foreground">{name} (deleted)</span>
                      )}
                      {m.node?.endpoint && (
                        <Mono className="block text-xs text-muted-foreground">{m.node.endpoint}</Mono>
                      )}
                    </TableCell>
                    <TableCell className="capitalize">{m.role}</TableCell>
                    <TableCell className="hidden md:table-cell">{mspOf(m)}</TableCell>
                    <TableCell>
                      <Badge variant={JOIN_STATUS_VARIANT[m.status]} className="capitalize">
                        {m.status}
                      </Badge>
                      {m.error && m.status === "failed" && (
                        <p className="mt-1 max-w-sm text-xs break-words text-destructive">{m.error}</p>
                      )}
                    </TableCell>
                    <TableCell className="text-right">
                      <RoleGate denied={["viewer"]}>
                        {m.status === "joined" ? (
                          <Button
                            size="sm"
                            variant="outline"
                            disabled={busy || !m.node}
                            onClick={() => setLeaving(m)}
                            aria-label={`Unjoin ${name}`}
                          >
                            {busy && <Loader2Icon className="animate-spin" />} Unjoin
                          </Button>
                        ) : (
                          <Button
                            size="sm"
                            disabled={busy || !m.node}
                            onClick={() => join.mutate({ role: m.role, nodeId: m.nodeId })}
                            aria-label={`Join ${name}`}
                          >
                            {busy && <Loader2Icon className="animate-spin" />}
                            {m.status === "failed" ? "Retry join" : "Join"}
                          </Button>
                        )}
                      </RoleGate>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        )}
      </QueryState>
      <RoleGate denied={["viewer"]}>
        <AddNode networkId={n.id} members={members.data ?? []} />
      </RoleGate>
    </Card>
  );
}

function DiffTable({ rows }: { rows: SettingChange[] }): ReactElement {
  return (
    <Table data-testid="config-diff">
      <TableHeader>
        <TableRow>
          <TableHead>Setting</TableHead>
          <TableHead>Previous</TableHead>
          <TableHead>New</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((r) => (
          <TableRow key={r.label} data-changed={r.changed ? "true" : "false"}>
            <TableCell>{r.label}</TableCell>
            <TableCell className={r.changed ? "bg-destructive/10 line-through" : ""}>
              <Mono>{r.before}</Mono>
            </TableCell>
            <TableCell className={r.changed ? "bg-success/10 font-medium" : ""}>
              <Mono>{r.after}</Mono>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function ChannelConfigTab({ n }: { n: FabricNetwork }): ReactElement {
  const current = useFabricChannelConfigQuery(n.id, "current");
  const update = useFabricUpdateConfigMutation(n.id);
  const [diff, setDiff] = useState<{ before: ReturnType<typeof batchSettingsOf> }>();
  const settings = useMemo(() => batchSettingsOf(current.data?.config), [current.data]);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<BatchFormValues>({
    values: {
      batchTimeout: settings.batchTimeout ?? "",
      maxMessageCount: settings.maxMessageCount?.toString() ?? "",
      absoluteMaxBytes: settings.absoluteMaxBytes?.toString() ?? "",
      preferredMaxBytes: settings.preferredMaxBytes?.toString() ?? "",
    },
  });
  const pretty = current.data ? JSON.stringify(current.data.config, null, 2) : "";
  const onSubmit = handleSubmit((v) => {
    const operations = batchOperations(settings, v);
    if (operations.length === 0) {
      setError("root", { message: "Nothing changed" });
      return;
    }
    const before = settings;
    update.mutate(
      { operations },
      {
        onSuccess: async () => {
          await current.refetch();
          setDiff({ before });
          showToast("success", "Channel config updated", { description: "The new config block is on the chain." });
        },
        onError: (e) => {
          const f = formErrorsFrom(e, {
            batchTimeout: "operations.0.payload.timeout",
            maxMessageCount: ["operations.0.payload.max_message_count", "operations.1.payload.max_message_count"],
          });
          for (const [k, m] of Object.entries(f)) setError(k as keyof BatchFormValues, { message: m as string });
        },
      },
    );
  });
  const whole = (x: string): true | string => !x.trim() || /^[1-9]\d*$/.test(x.trim()) || "A positive whole number";
  return (
    <div className="space-y-6">
      <RoleGate denied={["viewer"]}>
        <Card>
          <CardHeader>
            <CardTitle className="text-base">Batch settings</CardTitle>
            <CardDescription>
              Signed by this console's org admins and submitted to an orderer as a config update.
            </CardDescription>
          </CardHeader>
          <form onSubmit={(e) => void onSubmit(e)} noValidate>
            <CardContent className="grid gap-4 sm:grid-cols-2">
              <div className="grid content-start gap-2">
                <Label htmlFor="cfg-batchTimeout">Batch timeout</Label>
                <Input
                  id="cfg-batchTimeout"
                  aria-invalid={Boolean(errors.batchTimeout)}
                  {...register("batchTimeout", {
                    validate: (x) => !x.trim() || DURATION.test(x.trim()) || "A duration such as 2s or 500ms",
                  })}
                />
                <FieldError message={errors.batchTimeout?.message} />
              </div>
              <div className="grid content-start gap-2">
                <Label htmlFor="cfg-maxMessageCount">Max message count</Label>
                <Input
                  id="cfg-maxMessageCount"
                  inputMode="numeric"
                  {...register("maxMessageCount", { validate: whole })}
                />
                <FieldError message={errors.maxMessageCount?.message} />
              </div>
              <div className="grid content-start gap-2">
                <Label htmlFor="cfg-absoluteMaxBytes">Absolute max bytes</Label>
                <Input
                  id="cfg-absoluteMaxBytes"
                  inputMode="numeric"
                  {...register("absoluteMaxBytes", { validate: whole })}
                />
                <FieldError message={errors.absoluteMaxBytes?.message} />
              </div>
              <div className="grid content-start gap-2">
                <Label htmlFor="cfg-preferredMaxBytes">Preferred max bytes</Label>
                <Input
                  id="cfg-preferredMaxBytes"
                  inputMode="numeric"
                  {...register("preferredMaxBytes", { validate: whole })}
                />
                <FieldError message={errors.preferredMaxBytes?.message} />
              </div>
              <div className="sm:col-span-2">
                <FieldError message={errors.root?.message} />
              </div>
            </CardContent>
            <CardFooter className="justify-end pt-4">
              <Button type="submit" disabled={update.isPending || !current.data}>
                {update.isPending && <Loader2Icon className="animate-spin" />}
                Update config
              </Button>
            </CardFooter>
          </form>
          {diff && (
            <div className="border-t">
              <p className="px-5 pt-4 text-sm font-medium">Previous vs new</p>
              <DiffTable rows={batchDiff(diff.before, settings)} />
            </div>
          )}
        </Card>
        <AddExternalOrgCard networkId={n.id} />
      </RoleGate>
      <Card className="gap-0 py-0">
        <div className="flex flex-wrap items-center justify-between gap-2 border-b px-5 py-3">
          <div>
            <p className="text-sm font-medium">Current channel config</p>
            <p className="text-xs text-muted-foreground">From the latest config block, as configtxlator JSON.</p>
          </div>
          {pretty && <CopyButton value={pretty} />}
        </div>
        <QueryState query={current}>
          {() => (
            <pre
              data-testid="channel-config-json"
              className="max-h-[32rem] overflow-auto p-5 font-mono text-xs leading-relaxed"
            >
              {pretty}
            </pre>
          )}
        </QueryState>
      </Card>
    </div>
  );
}

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
  const selectTab = (t: string): void =>
    setSearch(
      (prev) => {
        const next = new URLSearchParams(prev);
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
            <TabsContent value="organizations" className="mt-4">
              <OrganizationsTab n={n} />
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
