import { ActivityIcon, PauseIcon, PlayIcon, RefreshCwIcon, RocketIcon, SquareIcon } from "lucide-react";
import { useState, type FormEvent, type ReactElement } from "react";
import { Link } from "react-router";
import { RoleGate } from "@/app/RoleGate";
import { OPERATORS } from "@/app/roles";
import { ConfirmButton, ConfirmDialog } from "@/components/ConfirmDialog";
import { DetailField } from "@/components/DetailField";
import { EmptyState, ErrorState, LoadingRows, PageHeader, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { showMutationError } from "@/data/error-toast";
import {
  useDeployMutation,
  usePrometheusDefaultsQuery,
  usePrometheusStatusQuery,
  useReloadMutation,
  useStartMutation,
  useStopMutation,
  useTargetsQuery,
  useUndeployMutation,
  type PrometheusStatus,
  type ScrapeTarget,
} from "@/data/metrics/metrics";
import { showToast } from "@/lib/toast";
import { formatDateTime, isZeroTime } from "@/lib/utils";
import { ProvidersCard } from "@/pages/monitoring/ProvidersCard";

function StatusBadge({ status }: { status: string }): ReactElement {
  const variant = status === "running" ? "default" : status === "error" ? "destructive" : "secondary";
  return <Badge variant={variant}>{status === "not_deployed" ? "not deployed" : status}</Badge>;
}

/** The deploy form: port, scrape interval and version label, prefilled from GET /metrics/defaults. */
function DeployForm({ redeploy, current }: { redeploy: boolean; current?: PrometheusStatus }): ReactElement {
  const defaults = usePrometheusDefaultsQuery(true);
  const deploy = useDeployMutation();
  const [port, setPort] = useState<string>("");
  const [interval, setInterval] = useState<string>("");
  const [version, setVersion] = useState<string>("");
  if (defaults.isPending) return <LoadingRows rows={2} />;
  if (defaults.isError)
    return <ErrorState error={defaults.error} onRetry={() => void defaults.refetch()} what="Defaults" />;
  const d = defaults.data;
  const portValue = port || String(current?.port ?? d.prometheus_port);
  const intervalValue = interval || String(current?.scrape_interval_seconds ?? d.scrape_interval);
  const versionValue = version || d.prometheus_version;

  function submit(e: FormEvent): void {
    e.preventDefault();
    deploy.mutate(
      {
        deployment_mode: "service",
        prometheus_port: Number(portValue),
        scrape_interval: Number(intervalValue),
        prometheus_version: versionValue,
      },
      {
        onSuccess: (r) => showToast("success", "Prometheus deployed", { description: r.message }),
        onError: showMutationError,
      },
    );
  }

  return (
    <form onSubmit={submit} className="space-y-4">
      {!d.binary_found && (
        <p role="alert" className="rounded-md border border-destructive/50 p-3 text-sm text-destructive">
          No prometheus binary was found on the server. Install it (Debian: apt-get install prometheus) or set
          CHAINLAUNCH_PROMETHEUS_BIN.
        </p>
      )}
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <div className="space-y-1">
          <Label htmlFor="prom-port">Port</Label>
          <Input
            id="prom-port"
            type="number"
            min={1024}
            max={65535}
            value={portValue}
            onChange={(e) => setPort(e.target.value)}
          />
          {d.available_ports.length > 0 && (
            <p className="text-xs text-muted-foreground">Free: {d.available_ports.join(", ")}</p>
          )}
        </div>
        <div className="space-y-1">
          <Label htmlFor="prom-interval">Scrape interval (seconds)</Label>
          <Input
            id="prom-interval"
            type="number"
            min={1}
            max={3600}
            value={intervalValue}
            onChange={(e) => setInterval(e.target.value)}
          />
        </div>
        <div className="space-y-1">
          <Label htmlFor="prom-version">Version</Label>
          <Input id="prom-version" value={versionValue} onChange={(e) => setVersion(e.target.value)} />
          <p className="text-xs text-muted-foreground">The installed Prometheus is what runs.</p>
        </div>
      </div>
      <Button type="submit" disabled={deploy.isPending}>
        <RocketIcon /> {deploy.isPending ? "Deploying..." : redeploy ? "Redeploy" : "Deploy Prometheus"}
      </Button>
    </form>
  );
}

function Targets(): ReactElement {
  const targets = useTargetsQuery(true);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Targets</CardTitle>
        <CardDescription>One per node: Fabric operations endpoints and Besu metrics ports.</CardDescription>
      </CardHeader>
      <QueryState
        query={targets}
        isEmpty={(t) => t.length === 0}
        empty={<EmptyState title="No targets" description="Create a node and it is scraped from then on." />}
      >
        {(list: ScrapeTarget[]) => (
          <div className="overflow-x-auto">
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Node</TableHead>
                  <TableHead>Type</TableHead>
                  <TableHead>Endpoint</TableHead>
                  <TableHead>Health</TableHead>
                  <TableHead>Last scrape</TableHead>
                  <TableHead>Error</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {list.map((t) => (
                  <TableRow key={t.scrapeUrl}>
                    <TableCell>
                      <Link className="hover:underline" to={`/nodes/${t.labels.node_id ?? ""}`}>
                        {t.labels.node_name ?? t.labels.job}
                      </Link>
                    </TableCell>
                    <TableCell>{t.labels.node_type ?? ""}</TableCell>
                    <TableCell className="font-mono text-xs">{t.scrapeUrl}</TableCell>
                    <TableCell>
                      <Badge
                        variant={t.health === "up" ? "default" : t.health === "down" ? "destructive" : "secondary"}
                      >
                        {t.health}
                      </Badge>
                    </TableCell>
                    <TableCell>{isZeroTime(t.lastScrape) ? "never" : formatDateTime(t.lastScrape)}</TableCell>
                    <TableCell className="max-w-64 truncate text-xs text-destructive" title={t.lastError}>
                      {t.lastError}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        )}
      </QueryState>
    </Card>
  );
}

function Deployed({ status }: { status: PrometheusStatus }): ReactElement {
  const reload = useReloadMutation();
  const undeploy = useUndeployMutation();
  const stop = useStopMutation();
  const start = useStartMutation();
  const stopped = status.status === "stopped";
  const [confirm, setConfirm] = useState(false);
  const [editing, setEditing] = useState(false);
  return (
    <>
      <Card>
        <CardHeader className="flex flex-row items-start justify-between gap-4">
          <div>
            <CardTitle>Prometheus</CardTitle>
            <CardDescription>Runs as a supervised process on 127.0.0.1; the console reads it.</CardDescription>
          </div>
          <RoleGate allowed={OPERATORS}>
            <div className="flex flex-wrap gap-2">
              <Button
                variant="outline"
                disabled={reload.isPending}
                onClick={() =>
                  reload.mutate(undefined, {
                    onSuccess: (r) => showToast("success", "Configuration reloaded", { description: r.message }),
                    onError: showMutationError,
                  })
                }
              >
                <RefreshCwIcon /> Reload
              </Button>
              {stopped ? (
                <Button
                  variant="outline"
                  disabled={start.isPending}
                  onClick={() =>
                    start.mutate(undefined, {
                      onSuccess: (r) => showToast("success", "Prometheus started", { description: r.message }),
                      onError: showMutationError,
                    })
                  }
                >
                  <PlayIcon /> Start
                </Button>
              ) : (
                <ConfirmButton
                  disabled={stop.isPending}
                  title="Stop Prometheus?"
                  description="Scraping stops and charts show a gap until it is started again; the metrics it stored are kept."
                  confirmLabel="Stop"
                  onConfirm={() =>
                    stop.mutateAsync(undefined).then(
                      (r) => showToast("success", "Prometheus stopped", { description: r.message }),
                      () => undefined,
                    )
                  }
                >
                  <PauseIcon /> Stop
                </ConfirmButton>
              )}
              <Button variant="outline" onClick={() => setEditing((v) => !v)}>
                Change settings
              </Button>
              <Button variant="destructive" onClick={() => setConfirm(true)}>
                <SquareIcon /> Undeploy
              </Button>
            </div>
          </RoleGate>
        </CardHeader>
        <CardContent className="space-y-6">
          <dl className="grid grid-cols-1 gap-5 sm:grid-cols-3">
            <DetailField label="Status">
              <StatusBadge status={status.status} />
            </DetailField>
            <DetailField label="Version">
              {status.version ?? "—"}
              {status.binary_version && (
                <span className="text-muted-foreground"> (binary {status.binary_version})</span>
              )}
            </DetailField>
            <DetailField label="Port">{status.port ?? "—"}</DetailField>
            <DetailField label="Scrape interval">{status.scrape_interval_seconds ?? "—"} s</DetailField>
            <DetailField label="Started">{status.started_at ? formatDateTime(status.started_at) : "—"}</DetailField>
            <DetailField label="Scrape jobs">{status.targets ?? 0}</DetailField>
          </dl>
          {status.error && <p className="text-sm text-destructive">{status.error}</p>}
          {editing && <DeployForm redeploy current={status} />}
        </CardContent>
      </Card>
      <Targets />
      <ConfirmDialog
        open={confirm}
        onOpenChange={setConfirm}
        title="Undeploy Prometheus?"
        description="Prometheus stops and its stored metrics are removed. Node charts stay empty until it is deployed again."
        confirmLabel="Undeploy"
        pending={undeploy.isPending}
        onConfirm={() =>
          undeploy.mutate(undefined, {
            onSuccess: () => {
              setConfirm(false);
              showToast("success", "Prometheus undeployed");
            },
            onError: showMutationError,
          })
        }
      />
    </>
  );
}

/** Monitoring (also settings/monitoring): the managed Prometheus, its targets, and notification providers. */
export function MonitoringPage(): ReactElement {
  const status = usePrometheusStatusQuery();
  return (
    <div className="space-y-6">
      <PageHeader
        title="Monitoring"
        description="Metrics of every node through a Prometheus the console runs, and where alerts go."
      />
      <QueryState query={status}>
        {(s) =>
          s.status === "not_deployed" ? (
            <Card>
              <CardHeader>
                <CardTitle className="flex items-center gap-2">
                  <ActivityIcon className="size-5" /> Prometheus is not deployed
                </CardTitle>
                <CardDescription>
                  Deploy it to scrape every node; node pages then show their Metrics charts.
                  {s.error ? ` Last attempt: ${s.error}` : ""}
                </CardDescription>
              </CardHeader>
              <CardContent>
                <RoleGate
                  allowed={OPERATORS}
                  fallback={<p className="text-sm text-muted-foreground">An admin or manager can deploy it.</p>}
                >
                  <DeployForm redeploy={false} />
                </RoleGate>
              </CardContent>
            </Card>
          ) : (
            <Deployed status={s} />
          )
        }
      </QueryState>
      <ProvidersCard />
    </div>
  );
}
