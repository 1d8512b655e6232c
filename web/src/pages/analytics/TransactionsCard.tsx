import { ActivityIcon, Loader2Icon } from "lucide-react";
import { useMemo, useState, type ReactElement } from "react";
import { Link } from "react-router";
import { TimeSeriesChart } from "@/components/charts/TimeSeriesChart";
import { EmptyState, ErrorState, LoadingRows } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { OptionSelect } from "@/components/charts/OptionSelect";
import { useNodesRangeQueries, usePrometheusStatusQuery } from "@/data/metrics/metrics";
import { useNodesQuery } from "@/data/nodes/nodes-query";
import { peakValue, sumByChannel, TX_PER_MINUTE_QUERY } from "@/pages/analytics/tx-per-channel";
import { RANGES } from "@/pages/nodes/metric-panels";

/** At most this many peers are asked (one range request each). */
const MAX_PEERS = 50;
const REFRESH_MS = 30_000;

function NotDeployed(): ReactElement {
  return (
    <EmptyState
      icon={ActivityIcon}
      title="Prometheus is not deployed"
      description="Deploy the managed Prometheus on the Monitoring page; it scrapes the peers and this chart reads it."
      action={
        <Button asChild variant="outline">
          <Link to="/monitoring">Go to Monitoring</Link>
        </Button>
      }
    />
  );
}

/** The chart over the console's peers, summed by channel. */
function TxChart({ peerIds, rangeSeconds }: { peerIds: number[]; rangeSeconds: number }): ReactElement {
  const r = useNodesRangeQueries(peerIds, TX_PER_MINUTE_QUERY, rangeSeconds, REFRESH_MS, true);
  const series = useMemo(() => sumByChannel(r.perNode), [r.perNode]);
  const xRange = useMemo((): [number, number] => {
    const end = Math.ceil((r.updatedAt || Date.now()) / 1000);
    return [end - rangeSeconds, end];
  }, [r.updatedAt, rangeSeconds]);

  if (r.answered === 0 && r.failed < peerIds.length) return <LoadingRows rows={3} />;
  if (r.answered === 0) return <ErrorState error={r.error} onRetry={r.refetchFailed} what="Transactions" />;
  return (
    <div className="space-y-2">
      {r.failed > 0 && (
        <p className="text-sm text-destructive">
          {r.failed} of {peerIds.length} peers did not answer; the sums leave them out.
        </p>
      )}
      {series.length === 0 ? (
        <p className="py-10 text-center text-sm text-muted-foreground">No transaction data in this range yet.</p>
      ) : (
        <>
          {peakValue(series) === 0 && <p className="text-sm text-muted-foreground">No transactions in this range.</p>}
          <TimeSeriesChart series={series} xRange={xRange} ariaLabel="Transactions per minute chart" />
        </>
      )}
    </div>
  );
}

/** Transactions per minute per channel, from the managed Prometheus, summed over the peers. */
export function TransactionsCard(): ReactElement {
  const status = usePrometheusStatusQuery();
  const [rangeSeconds, setRange] = useState<number>(RANGES[0].value);
  const running = status.data !== undefined && status.data.status !== "not_deployed";
  const nodes = useNodesQuery({ page: 1, limit: 1000, platform: "FABRIC" });
  const peers = (nodes.data?.items ?? []).filter((n) => n.nodeType === "FABRIC_PEER");
  const peerIds = peers.slice(0, MAX_PEERS).map((n) => n.id);

  let body: ReactElement;
  if (status.isPending || (running && nodes.isPending)) body = <LoadingRows rows={3} />;
  else if (status.isError)
    body = <ErrorState error={status.error} onRetry={() => void status.refetch()} what="Prometheus status" />;
  else if (!running) body = <NotDeployed />;
  else if (nodes.isError) body = <ErrorState error={nodes.error} onRetry={() => void nodes.refetch()} what="Peers" />;
  else if (peerIds.length === 0)
    body = <EmptyState icon={ActivityIcon} title="No peers" description="Transactions are counted by peers." />;
  else body = <TxChart peerIds={peerIds} rangeSeconds={rangeSeconds} />;

  return (
    <Card className="min-w-0">
      <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="space-y-1.5">
          <CardTitle>Transactions per minute</CardTitle>
          <CardDescription>
            Per channel, summed over {peers.length > MAX_PEERS ? `the first ${MAX_PEERS} of ` : ""}the console&apos;s
            peers.
            {running && status.data?.status !== "running" && ` Prometheus is ${status.data?.status}.`}
          </CardDescription>
        </div>
        {running && (
          <div className="flex items-center gap-2">
            {nodes.isFetching && <Loader2Icon className="size-3.5 animate-spin text-muted-foreground" aria-hidden />}
            <OptionSelect
              id="tx-range"
              label="Time range"
              hideLabel
              value={rangeSeconds}
              options={RANGES}
              onChange={setRange}
            />
          </div>
        )}
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}
