import { ActivityIcon, Loader2Icon } from "lucide-react";
import { useMemo, useState, type ReactElement } from "react";
import { Link } from "react-router";
import type { NodeInfo } from "@/api/client";
import { OptionSelect } from "@/components/charts/OptionSelect";
import { TimeSeriesChart } from "@/components/charts/TimeSeriesChart";
import { EmptyState, ErrorState, LoadingRows } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { useNodeRangeQuery, usePrometheusStatusQuery } from "@/data/metrics/metrics";
import { panelsFor, RANGES, REFRESHES, type MetricPanel } from "@/pages/nodes/metric-panels";

function PanelCard(props: {
  nodeId: number;
  panel: MetricPanel;
  rangeSeconds: number;
  refreshMs: number;
}): ReactElement {
  const { panel } = props;
  const q = useNodeRangeQuery(props.nodeId, panel.query, props.rangeSeconds, props.refreshMs, true);
  const series = useMemo(
    () =>
      (q.data ?? [])
        // A histogram nobody has observed yet answers NaN everywhere: that is no data, not a line.
        .filter((s) => s.values.some(([, v]) => Number.isFinite(Number(v))))
        .map((s) => ({ label: panel.legend(s.metric), values: s.values })),
    [q.data, panel],
  );
  const xRange = useMemo((): [number, number] => {
    const end = Math.ceil((q.dataUpdatedAt || Date.now()) / 1000);
    return [end - props.rangeSeconds, end];
  }, [q.dataUpdatedAt, props.rangeSeconds]);
  return (
    <Card className="min-w-0" data-testid={`metric-${panel.id}`}>
      <CardHeader className="flex flex-row items-center justify-between pb-2">
        <CardTitle className="text-sm font-medium">{panel.title}</CardTitle>
        {q.isFetching && (
          <Loader2Icon className="size-3.5 animate-spin text-muted-foreground" aria-label="Refreshing" />
        )}
      </CardHeader>
      <CardContent>
        {q.isPending ? (
          <LoadingRows rows={3} />
        ) : q.isError ? (
          <ErrorState error={q.error} onRetry={() => void q.refetch()} what={panel.title} />
        ) : series.length === 0 ? (
          <p className="py-10 text-center text-sm text-muted-foreground">No data in this range yet.</p>
        ) : (
          <TimeSeriesChart series={series} format={panel.format} xRange={xRange} ariaLabel={`${panel.title} chart`} />
        )}
      </CardContent>
    </Card>
  );
}

/**
 * The node detail's Metrics tab: charts of the node's own series from the managed Prometheus, with a
 * time range and auto refresh. Without a Prometheus it says so and links to Monitoring.
 */
export function NodeMetrics({ node }: { node: NodeInfo }): ReactElement {
  const status = usePrometheusStatusQuery();
  const [rangeSeconds, setRange] = useState<number>(RANGES[0].value);
  const [refreshMs, setRefresh] = useState<number>(REFRESHES[2].value);
  const panels = useMemo(() => panelsFor(node.nodeType), [node.nodeType]);

  if (status.isPending) return <LoadingRows />;
  if (status.isError) return <ErrorState error={status.error} onRetry={() => void status.refetch()} what="Metrics" />;
  if (status.data.status === "not_deployed") {
    return (
      <Card>
        <EmptyState
          icon={ActivityIcon}
          title="Prometheus is not deployed"
          description="Deploy the managed Prometheus on the Monitoring page; it scrapes every node and these charts read it."
          action={
            <Button asChild variant="outline">
              <Link to="/monitoring">Go to Monitoring</Link>
            </Button>
          }
        />
      </Card>
    );
  }
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-4">
        <OptionSelect id="metrics-range" label="Time range" value={rangeSeconds} options={RANGES} onChange={setRange} />
        <OptionSelect
          id="metrics-refresh"
          label="Auto refresh"
          value={refreshMs}
          options={REFRESHES}
          onChange={setRefresh}
        />
        {status.data.status !== "running" && (
          <p className="text-sm text-destructive">
            Prometheus is {status.data.status}
            {status.data.error ? `: ${status.data.error}` : ""}
          </p>
        )}
      </div>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        {panels.map((p) => (
          <PanelCard key={p.id} nodeId={node.id} panel={p} rangeSeconds={rangeSeconds} refreshMs={refreshMs} />
        ))}
      </div>
    </div>
  );
}
