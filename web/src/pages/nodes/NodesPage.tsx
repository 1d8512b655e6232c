import { LayoutTemplateIcon, PlusIcon, SearchIcon, ServerIcon } from "lucide-react";
import { useEffect, useState, type ReactElement } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import type { NodeInfo, NodeStatus } from "@/api/client";
import { RoleGate } from "@/app/RoleGate";
import { Pager } from "@/components/Pager";
import { EmptyState, PageHeader, QueryState } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { NODE_STATUSES, useNodesQuery } from "@/data/nodes/nodes-query";
import { NODE_TYPE_LABELS, statusLabel } from "@/data/nodes/node-status";
import { formatDateTime } from "@/lib/utils";
import { NodeActions } from "@/pages/nodes/NodeActions";
import { NodeStatusBadge } from "@/pages/nodes/NodeStatusBadge";

const PAGE_SIZE = 20;
const ALL = "all";

/** The organization (Fabric) or network (Besu) a node belongs to. */
export function nodeOwner(n: NodeInfo): string {
  if (n.fabricPeer) return n.fabricPeer.mspId;
  if (n.fabricOrderer) return n.fabricOrderer.mspId;
  if (n.besuNode) return `Network #${n.besuNode.networkId}`;
  return "—";
}

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

/** Every node with its live status; filters and page live in the URL so links and back work. */
export function NodesPage(): ReactElement {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const page = Math.max(1, Number(params.get("page") ?? 1) || 1);
  const platform = (params.get("platform") ?? undefined) as "FABRIC" | "BESU" | undefined;
  const status = (params.get("status") ?? undefined) as NodeStatus | undefined;
  const [search, setSearch] = useState(params.get("name") ?? "");
  const name = useDebounced(search.trim(), 300);

  const set = (key: string, value: string | undefined): void =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (value) next.set(key, value);
        else next.delete(key);
        if (key !== "page") next.delete("page");
        return next;
      },
      { replace: true },
    );

  useEffect(() => {
    if ((params.get("name") ?? "") !== name) set("name", name || undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only the debounced text drives the URL
  }, [name]);

  const nodes = useNodesQuery({ page, limit: PAGE_SIZE, platform, status, name: name || undefined });
  const filtered = Boolean(platform || status || name);
  const create = (
    <RoleGate denied={["viewer"]}>
      <Button asChild>
        <Link to="/nodes/create">
          <PlusIcon /> Create node
        </Link>
      </Button>
    </RoleGate>
  );

  return (
    <div>
      <PageHeader
        title="Nodes"
        description="Fabric peers and orderers and Besu nodes, run and supervised by ChainLaunch."
        actions={
          <>
            {/* Templates live with the nodes they make: the sidebar is the spec's list, exactly. */}
            <Button variant="outline" asChild>
              <Link to="/templates">
                <LayoutTemplateIcon /> Templates
              </Link>
            </Button>
            <RoleGate denied={["viewer"]}>
              <Button variant="outline" asChild>
                <Link to="/nodes/fabric/bulk">Bulk create</Link>
              </Button>
            </RoleGate>
            {create}
          </>
        }
      />
      <div className="mb-4 flex flex-col gap-2 sm:flex-row sm:items-center">
        <div className="relative sm:max-w-xs sm:flex-1">
          <SearchIcon className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" />
          <Input
            aria-label="Search nodes by name"
            placeholder="Search by name"
            className="pl-8"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <div className="flex gap-2">
          <Select value={platform ?? ALL} onValueChange={(v) => set("platform", v === ALL ? undefined : v)}>
            <SelectTrigger aria-label="Platform" className="w-36">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ALL}>All platforms</SelectItem>
              <SelectItem value="FABRIC">Fabric</SelectItem>
              <SelectItem value="BESU">Besu</SelectItem>
            </SelectContent>
          </Select>
          <Select value={status ?? ALL} onValueChange={(v) => set("status", v === ALL ? undefined : v)}>
            <SelectTrigger aria-label="Status" className="w-36">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ALL}>All statuses</SelectItem>
              {NODE_STATUSES.map((s) => (
                <SelectItem key={s} value={s}>
                  {statusLabel(s)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      </div>
      <Card className="gap-0 py-0">
        <QueryState
          query={nodes}
          isEmpty={(d) => d.items.length === 0 && d.total === 0}
          empty={
            filtered ? (
              <EmptyState
                icon={SearchIcon}
                title="No matching nodes"
                description="Try other filters or another name."
              />
            ) : (
              <EmptyState
                icon={ServerIcon}
                title="No nodes yet"
                description="Create a Fabric peer or orderer, or a Besu node; ChainLaunch runs it as a supervised process."
                action={create}
              />
            )
          }
        >
          {(d) => (
            <>
              <Table data-testid="node-list">
                <TableHeader>
                  <TableRow>
                    <TableHead>Name</TableHead>
                    <TableHead>Status</TableHead>
                    <TableHead className="hidden md:table-cell">Type</TableHead>
                    <TableHead className="hidden md:table-cell">Owner</TableHead>
                    <TableHead className="hidden lg:table-cell">Endpoint</TableHead>
                    <TableHead className="hidden xl:table-cell">Created</TableHead>
                    <TableHead className="w-0">
                      <span className="sr-only">Actions</span>
                    </TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {d.items.map((n) => (
                    <TableRow
                      key={n.id}
                      data-testid={`node-row-${n.name}`}
                      className="cursor-pointer"
                      onClick={() => void navigate(`/nodes/${n.id}`)}
                    >
                      <TableCell>
                        <Link to={`/nodes/${n.id}`} className="font-medium hover:underline">
                          {n.name}
                        </Link>
                      </TableCell>
                      <TableCell>
                        <NodeStatusBadge status={n.status} />
                      </TableCell>
                      <TableCell className="hidden text-muted-foreground md:table-cell">
                        {NODE_TYPE_LABELS[n.nodeType] ?? n.nodeType}
                      </TableCell>
                      <TableCell className="hidden text-muted-foreground md:table-cell">{nodeOwner(n)}</TableCell>
                      <TableCell className="hidden font-mono text-xs text-muted-foreground lg:table-cell">
                        {n.endpoint || "—"}
                      </TableCell>
                      <TableCell className="hidden text-muted-foreground xl:table-cell">
                        {formatDateTime(n.createdAt)}
                      </TableCell>
                      <TableCell>
                        <NodeActions node={n} compact />
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
              <Pager
                total={d.total}
                page={page}
                pageSize={PAGE_SIZE}
                noun={["node", "nodes"]}
                busy={nodes.isFetching && nodes.isPlaceholderData}
                onPage={(p) => set("page", String(p))}
              />
            </>
          )}
        </QueryState>
      </Card>
    </div>
  );
}
