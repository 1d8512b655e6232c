import { ActivityIcon, Loader2Icon, LockIcon, UnplugIcon } from "lucide-react";
import type { ReactElement } from "react";
import { isRoleAllowed, OPERATORS } from "@/app/roles";
import { Mono } from "@/components/DetailField";
import { EmptyState, ErrorState, LoadingRows } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useMeQuery } from "@/data/auth/me-query";
import { useConnectionMetricsQuery } from "@/data/federation/connection-metrics-query";
import { useMetricsFederationMutation } from "@/data/federation/metrics-federation-mutation";
import type { ConnectedPeer } from "@/data/federation/types";
import { showToast } from "@/lib/toast";
import { isActive } from "@/pages/connect/federation-view";
import { metricsRefusal, parseUp, theirGrantText } from "@/pages/connect/metrics-federation-view";

/** The grant: whether the other console may read this console's node metrics. */
function GrantSwitch({ peer }: { peer: ConnectedPeer }): ReactElement {
  const me = useMeQuery();
  const canManage = isRoleAllowed(me.data?.role, { allowed: OPERATORS });
  const grant = useMetricsFederationMutation();
  const on = peer.metrics_federation;
  const label = "Share this console's metrics with this console";
  return (
    <div className="flex items-start justify-between gap-4">
      <div>
        <p id="metrics-grant-label" className="text-sm font-medium">
          {label}
        </p>
        <p className="text-xs text-muted-foreground">
          {on
            ? "It can run queries on the metrics of this console's nodes."
            : "It can't read this console's node metrics."}
        </p>
      </div>
      <div className="flex items-center gap-2">
        {grant.isPending && <Loader2Icon className="size-4 animate-spin text-muted-foreground" />}
        <button
          type="button"
          role="switch"
          aria-checked={on}
          aria-labelledby="metrics-grant-label"
          disabled={!canManage || !isActive(peer) || grant.isPending}
          onClick={() =>
            grant.mutate(
              { nodeId: peer.node_id, enabled: !on },
              {
                onSuccess: (message) =>
                  showToast("success", on ? "Metrics no longer shared" : "Metrics shared", { description: message }),
              },
            )
          }
          className="relative inline-flex h-5 w-9 shrink-0 items-center rounded-full border-2 border-transparent bg-input transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none disabled:cursor-not-allowed disabled:opacity-50 aria-checked:bg-primary"
        >
          <span
            className={`pointer-events-none block size-4 rounded-full bg-background shadow transition-transform ${
              on ? "translate-x-4" : "translate-x-0"
            }`}
          />
        </button>
      </div>
    </div>
  );
}

/** The other console's scrape targets, read through its `up` series. */
function TheirMetrics({ peer }: { peer: ConnectedPeer }): ReactElement {
  const active = isActive(peer);
  const up = useConnectionMetricsQuery(peer.node_id, "up", active);
  if (!active) {
    return (
      <EmptyState
        icon={UnplugIcon}
        title="This connection is revoked"
        description="Its metrics can't be read. Accept a new invitation from it to connect again."
      />
    );
  }
  if (up.isPending) return <LoadingRows rows={3} />;
  if (up.isError) {
    const refusal = metricsRefusal(up.error);
    if (refusal === "not-granted") {
      return (
        <EmptyState
          icon={LockIcon}
          title="Not granted"
          description={`${peer.node_id} has not shared its metrics with this console. Its operator turns on "Share this console's metrics" for this console on their Connection page.`}
        />
      );
    }
    if (refusal === "unreachable") {
      return (
        <EmptyState
          icon={UnplugIcon}
          title="Its metrics can't be reached"
          description={up.error.message || "The other console did not answer."}
        />
      );
    }
    return <ErrorState error={up.error} onRetry={() => void up.refetch()} what="Metrics" />;
  }
  const targets = parseUp(up.data);
  if (targets.length === 0) {
    return (
      <EmptyState
        icon={ActivityIcon}
        title="No targets"
        description="Its metrics are shared, but its Prometheus scrapes nothing yet."
      />
    );
  }
  return (
    <Table aria-label="Their metrics targets">
      <TableHeader>
        <TableRow>
          <TableHead>Job</TableHead>
          <TableHead>Instance</TableHead>
          <TableHead>State</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {targets.map((t) => (
          <TableRow key={`${t.job}/${t.instance}`}>
            <TableCell className="font-medium">{t.job || "—"}</TableCell>
            <TableCell>
              <Mono>{t.instance || "—"}</Mono>
            </TableCell>
            <TableCell>
              <Badge variant={t.up ? "success" : "destructive"}>{t.up ? "Up" : "Down"}</Badge>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** Metrics federation with one connection: what this console grants it, and what it grants us. */
export function MetricsFederationCard({ peer }: { peer: ConnectedPeer }): ReactElement {
  return (
    <Card className="gap-0 pb-0">
      <CardHeader className="pb-4">
        <CardTitle>Metrics federation</CardTitle>
        <CardDescription>Each console decides whether the other may read its node metrics.</CardDescription>
      </CardHeader>
      <CardContent className="border-b pb-4">
        <GrantSwitch peer={peer} />
      </CardContent>
      <CardHeader className="pt-4 pb-2">
        <CardTitle className="text-base">Their metrics</CardTitle>
        <CardDescription>{theirGrantText(peer.peer_grants_metrics)}</CardDescription>
      </CardHeader>
      <TheirMetrics peer={peer} />
    </Card>
  );
}
