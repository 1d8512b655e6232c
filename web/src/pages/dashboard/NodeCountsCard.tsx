import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactElement } from "react";
import { Link } from "react-router";
import type { NodeStatus } from "@/api/client";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { NODE_STATUSES } from "@/data/nodes/nodes-query";
import { nodeStatusDot, statusLabel } from "@/data/nodes/node-status";
import { cn } from "@/lib/utils";

/** Nodes per status, each linking to the filtered list. */
export function NodeCountsCard({
  query,
}: {
  query: UseQueryResult<{ total: number; byStatus: Record<NodeStatus, number> }>;
}): ReactElement {
  return (
    <Card data-testid="node-counts">
      <CardHeader>
        <CardTitle className="text-base">Nodes by status</CardTitle>
      </CardHeader>
      <CardContent>
        {query.isPending ? (
          <Skeleton className="h-10 w-full" />
        ) : query.isError ? (
          <p className="text-sm text-destructive">Unavailable</p>
        ) : query.data.total === 0 ? (
          <p className="text-sm text-muted-foreground">
            No nodes yet.{" "}
            <Link to="/nodes/create" className="font-medium text-foreground hover:underline">
              Create one
            </Link>
            .
          </p>
        ) : (
          <div className="grid grid-cols-3 gap-3 sm:grid-cols-6">
            {NODE_STATUSES.map((s) => (
              <Link
                key={s}
                to={`/nodes?status=${s}`}
                className="rounded-lg border px-3 py-2 transition-colors hover:border-primary/40"
              >
                <span className="flex items-center gap-1.5 text-xs text-muted-foreground">
                  <span className={cn("size-2 rounded-full", nodeStatusDot(s))} />
                  {statusLabel(s)}
                </span>
                <span className="text-xl font-semibold tabular-nums">{query.data.byStatus[s]}</span>
              </Link>
            ))}
          </div>
        )}
      </CardContent>
    </Card>
  );
}
