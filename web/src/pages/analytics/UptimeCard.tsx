import type { UseQueryResult } from "@tanstack/react-query";
import { ServerIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Link } from "react-router";
import type { NodeHealthHistory, NodeInfo } from "@/api/client";
import { Pager } from "@/components/Pager";
import { EmptyState, ErrorState, LoadingRows } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useNodeHealthHistoriesQueries } from "@/data/nodes/node-query";
import { useNodesQuery } from "@/data/nodes/nodes-query";
import { cn } from "@/lib/utils";
import { uptimeOf, uptimeTone } from "@/pages/analytics/uptime";
import { HEALTH_COLOURS, healthBars } from "@/pages/nodes/health";
import { NodeStatusBadge } from "@/pages/nodes/NodeStatusBadge";

/** Nodes per page: each one costs a health-history request. */
const NODES_PER_PAGE = 10;
/** The window of health history the card reads, in hours (the server keeps 24 by default). */
const HOURS = 24;

const when = (iso: string): string =>
  new Date(iso).toLocaleString(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });

function UptimeRow({ node, history }: { node: NodeInfo; history: UseQueryResult<NodeHealthHistory> }): ReactElement {
  const checks = history.data?.healthchecks ?? [];
  const u = uptimeOf(checks);
  const bars = healthBars(checks, 48);
  return (
    <li
      className="grid grid-cols-[minmax(0,1fr)_auto_4rem] items-center gap-x-3 gap-y-1.5 py-2 sm:grid-cols-[minmax(0,14rem)_6.5rem_minmax(8rem,1fr)_4rem]"
      aria-label={`${node.name} uptime`}
      data-testid="uptime-row"
    >
      <Link to={`/nodes/${node.id}`} className="min-w-0 truncate text-sm font-medium hover:underline">
        {node.name}
      </Link>
      <NodeStatusBadge status={node.status} />
      <div className="order-last col-span-3 min-w-0 sm:order-none sm:col-span-1">
        {history.isPending ? (
          <Skeleton className="h-4 w-full" />
        ) : history.isError ? (
          <button
            type="button"
            className="text-xs text-destructive hover:underline"
            onClick={() => void history.refetch()}
          >
            Health history unavailable, retry
          </button>
        ) : bars.length === 0 ? (
          <span className="text-xs text-muted-foreground">No checks recorded yet</span>
        ) : (
          <div className="space-y-0.5">
            <div className="flex h-4 gap-px" aria-hidden>
              {bars.map((b) => (
                <span
                  key={b.at}
                  title={`${when(b.at)}: ${b.status}`}
                  className={cn("min-w-0 max-w-3 flex-1 rounded-[1px]", HEALTH_COLOURS[b.status])}
                />
              ))}
            </div>
            <p className="truncate text-xs text-muted-foreground">
              {u.upSince
                ? `Up since ${u.upSinceBeforeWindow ? "at least " : ""}${when(u.upSince)}`
                : "Not healthy at the last check"}
            </p>
          </div>
        )}
      </div>
      <div
        className={cn("text-right text-sm font-medium tabular-nums", uptimeTone(u.percent))}
        title={u.total > 0 ? `${u.healthy} of ${u.total} checks healthy` : undefined}
      >
        {u.percent === null ? "—" : `${u.percent}%`}
      </div>
    </li>
  );
}

/** Per node: current status, share of healthy checks over the kept history, and since when it is up. */
export function UptimeCard(): ReactElement {
  const [page, setPage] = useState(1);
  const list = useNodesQuery({ page, limit: NODES_PER_PAGE });
  const nodes = list.data?.items ?? [];
  const histories = useNodeHealthHistoriesQueries(
    nodes.map((n) => n.id),
    HOURS,
  );
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Node uptime</CardTitle>
        <CardDescription>
          Healthy share of the console&apos;s health checks over the last {HOURS} hours; one bar per check, newest
          right.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {list.isPending ? (
          <LoadingRows rows={3} />
        ) : list.isError ? (
          <ErrorState error={list.error} onRetry={() => void list.refetch()} what="Nodes" />
        ) : nodes.length === 0 ? (
          <EmptyState
            icon={ServerIcon}
            title="No nodes"
            description="Create a node; its health checks show here."
            action={
              <Button asChild variant="outline">
                <Link to="/nodes">Go to Nodes</Link>
              </Button>
            }
          />
        ) : (
          <ul className="divide-y">
            {nodes.map((n, i) => {
              const h = histories[i];
              return h ? <UptimeRow key={n.id} node={n} history={h} /> : null;
            })}
          </ul>
        )}
      </CardContent>
      {list.data && list.data.total > NODES_PER_PAGE && (
        <Pager
          total={list.data.total}
          page={page}
          pageSize={NODES_PER_PAGE}
          noun={["node", "nodes"]}
          busy={list.isFetching}
          onPage={setPage}
        />
      )}
    </Card>
  );
}
