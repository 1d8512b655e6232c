import { Loader2Icon, PencilIcon, ShieldCheckIcon } from "lucide-react";
import { lazy, Suspense, useState, type ReactElement } from "react";
import { Link, useParams } from "react-router";
import type { NodeInfo } from "@/api/client";
import { RoleGate } from "@/app/RoleGate";
import { CertificateDetails } from "@/components/certificates/CertificateDetails";
import { DetailField, Mono } from "@/components/DetailField";
import { CopyButton } from "@/components/CopyButton";
import { DeleteResourceButton } from "@/components/ConfirmDialog";
import { Pager } from "@/components/Pager";
import { EmptyState, LoadingRows, PageHeader, QueryState } from "@/components/states";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useBesuNetworkQuery } from "@/data/besu-networks/besu-network-query";
import { useKeyQuery } from "@/data/keys/key-query";
import { useNodeActionMutation, useNodeDeleteMutation } from "@/data/nodes/node-mutations";
import {
  useNodeEventsQuery,
  useNodeHealthHistoryQuery,
  useNodeHealthQuery,
  useNodeQuery,
} from "@/data/nodes/node-query";
import { NODE_TYPE_LABELS } from "@/data/nodes/node-status";
import { showToast } from "@/lib/toast";
import { cn, formatDateTime } from "@/lib/utils";
import { BesuConsole } from "@/pages/nodes/BesuConsole";
import { runtimeLabel } from "@/pages/nodes/fabric-form";
import { HEALTH_COLOURS, healthBars } from "@/pages/nodes/health";
import { LogViewer } from "@/pages/nodes/LogViewer";
import { NodeActions } from "@/pages/nodes/NodeActions";
import { NodeStatusBadge } from "@/pages/nodes/NodeStatusBadge";
import { NodeTroublePanel } from "@/pages/nodes/NodeTroublePanel";

/** The charts (uPlot) load with the Metrics tab, not with the page. */
const NodeMetrics = lazy(() => import("@/pages/nodes/NodeMetrics").then((m) => ({ default: m.NodeMetrics })));

function Addr({ value }: { value: string | undefined }): ReactElement {
  if (!value) return <span className="text-muted-foreground">—</span>;
  return (
    <span className="inline-flex items-center gap-1">
      <Mono>{value}</Mono>
      <CopyButton value={value} />
    </span>
  );
}

/** A Besu network's name (its id until the name arrives, or when it can't be read). */
function BesuNetworkName({ id }: { id: number }): ReactElement {
  const q = useBesuNetworkQuery(id);
  return <>{q.data?.name ?? `Network #${id}`}</>;
}

/** A key's name (its id until the name arrives, or when it can't be read). */
function KeyName({ id }: { id: number }): ReactElement {
  const q = useKeyQuery(id);
  return <>{q.data?.name ?? `Key #${id}`}</>;
}

function Overview({ n }: { n: NodeInfo }): ReactElement {
  const f = n.fabricPeer ?? n.fabricOrderer;
  const b = n.besuNode;
  return (
    <Card>
      <CardContent>
        <dl className="grid grid-cols-1 gap-5 sm:grid-cols-2 lg:grid-cols-3">
          <DetailField label="Type">{NODE_TYPE_LABELS[n.nodeType] ?? n.nodeType}</DetailField>
          <DetailField label="Status">
            <NodeStatusBadge status={n.status} />
          </DetailField>
          {f && (
            <>
              <DetailField label="Organization">
                <Link to={`/organizations/${f.organizationId}`} className="hover:underline">
                  {f.mspId}
                </Link>
              </DetailField>
              <DetailField label="External endpoint">
                <Addr value={f.externalEndpoint} />
              </DetailField>
              <DetailField label="Listen address">
                <Addr value={f.listenAddress} />
              </DetailField>
              <DetailField label="Operations address">
                <Addr value={f.operationsAddress} />
              </DetailField>
              {n.fabricPeer && (
                <DetailField label="Chaincode address">
                  <Addr value={n.fabricPeer.chaincodeAddress} />
                </DetailField>
              )}
              {n.fabricOrderer && (
                <DetailField label="Admin address">
                  <Addr value={n.fabricOrderer.adminAddress} />
                </DetailField>
              )}
              <DetailField label="Fabric version">
                <Mono>{f.version}</Mono>
              </DetailField>
              <DetailField label="Domain names">
                {f.domainNames.length ? f.domainNames.join(", ") : <span className="text-muted-foreground">—</span>}
              </DetailField>
              <DetailField label="Runtime">
                <span data-testid="node-runtime" data-mode={f.mode}>
                  {runtimeLabel(f.mode)}
                </span>
              </DetailField>
              {f.dockerEngine && (
                <DetailField label="Docker engine">
                  <span data-testid="node-engine">
                    <Mono>{f.dockerEngine}</Mono>
                  </span>
                </DetailField>
              )}
            </>
          )}
          {b && (
            <>
              <DetailField label="Network">
                <Link to={`/networks/${b.networkId}/besu`} className="hover:underline">
                  <BesuNetworkName id={b.networkId} />
                </Link>
              </DetailField>
              <DetailField label="Node key">
                <Link to={`/settings/keys/${b.keyId}`} className="hover:underline">
                  <KeyName id={b.keyId} />
                </Link>
              </DetailField>
              <DetailField label="RPC">
                <Addr value={`${b.rpcHost}:${b.rpcPort}`} />
              </DetailField>
              <DetailField label="P2P">
                <Addr value={`${b.p2pHost}:${b.p2pPort}`} />
              </DetailField>
              <DetailField label="External / internal IP">
                <Mono>
                  {b.externalIp} / {b.internalIp}
                </Mono>
              </DetailField>
              <DetailField label="Metrics">
                {b.metricsEnabled ? (
                  <a
                    href={`http://${b.metricsHost === "0.0.0.0" ? "127.0.0.1" : b.metricsHost}:${b.metricsPort}/metrics`}
                    target="_blank"
                    rel="noreferrer"
                    className="font-mono text-xs hover:underline"
                  >
                    {b.metricsHost}:{b.metricsPort}/metrics
                  </a>
                ) : (
                  "Off"
                )}
              </DetailField>
              <DetailField label="enode URL" className="sm:col-span-2 lg:col-span-3">
                <Addr value={b.enodeUrl} />
              </DetailField>
            </>
          )}
          <DetailField label="Created">{formatDateTime(n.createdAt)}</DetailField>
          <DetailField label="Updated">{formatDateTime(n.updatedAt)}</DetailField>
        </dl>
      </CardContent>
    </Card>
  );
}

function Certificates({ n }: { n: NodeInfo }): ReactElement {
  const f = n.fabricPeer ?? n.fabricOrderer;
  if (!f) return <EmptyState title="No certificates" description="This node has no Fabric certificates." />;
  const slug = n.name.replace(/[^\w.-]+/g, "-");
  return (
    <div className="grid gap-6 xl:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Signing certificate</CardTitle>
          <CardDescription>The node's MSP identity, issued by {f.mspId}'s signing CA.</CardDescription>
        </CardHeader>
        <CardContent>
          <CertificateDetails pem={f.signCert} filename={`${slug}-sign.pem`} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle className="text-base">TLS certificate</CardTitle>
          <CardDescription>Served on the node's gRPC and operations endpoints.</CardDescription>
        </CardHeader>
        <CardContent>
          <CertificateDetails pem={f.tlsCert} filename={`${slug}-tls.pem`} />
        </CardContent>
      </Card>
    </div>
  );
}

function Events({ id }: { id: number }): ReactElement {
  const [page, setPage] = useState(1);
  const events = useNodeEventsQuery(id, page, 10);
  return (
    <Card className="gap-0 py-0">
      <QueryState
        query={events}
        isEmpty={(d) => d.total === 0}
        empty={<EmptyState title="No events yet" description="Starts, stops, crashes and updates appear here." />}
      >
        {(d) => (
          <>
            <Table data-testid="node-events">
              <TableHeader>
                <TableRow>
                  <TableHead>When</TableHead>
                  <TableHead>Event</TableHead>
                  <TableHead>Details</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {d.items.map((e) => (
                  <TableRow key={e.id}>
                    <TableCell className="whitespace-nowrap text-muted-foreground">
                      {formatDateTime(e.created_at)}
                    </TableCell>
                    <TableCell>
                      <Badge variant={e.type === "crash" ? "destructive" : "outline"}>{e.type}</Badge>
                    </TableCell>
                    <TableCell>
                      <Mono className="line-clamp-2 text-muted-foreground">
                        {Object.entries(e.data)
                          .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
                          .join(" · ")}
                      </Mono>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            <Pager
              total={d.total}
              page={page}
              pageSize={10}
              noun={["event", "events"]}
              busy={events.isFetching}
              onPage={setPage}
            />
          </>
        )}
      </QueryState>
    </Card>
  );
}

function Health({ id }: { id: number }): ReactElement {
  const health = useNodeHealthQuery(id);
  const history = useNodeHealthHistoryQuery(id);
  return (
    <div className="space-y-6">
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Current health</CardTitle>
          <CardDescription>From the node's operations endpoint, checked periodically.</CardDescription>
        </CardHeader>
        <CardContent>
          <QueryState query={health}>
            {(h) => (
              <dl className="grid grid-cols-2 gap-5 md:grid-cols-4">
                <DetailField label="Status">
                  <Badge
                    variant={
                      h.status === "healthy" ? "success" : h.status === "unhealthy" ? "destructive" : "secondary"
                    }
                    className="capitalize"
                  >
                    {h.status}
                  </Badge>
                </DetailField>
                <DetailField label="Response time">{h.responseTimeMs} ms</DetailField>
                <DetailField label="Checked">{formatDateTime(h.lastChecked)}</DetailField>
                <DetailField label="Endpoint">
                  <Mono>{h.endpoint}</Mono>
                </DetailField>
                {h.errorMessage && (
                  <DetailField label="Error" className="col-span-2 md:col-span-4">
                    <span className="text-destructive">{h.errorMessage}</span>
                  </DetailField>
                )}
              </dl>
            )}
          </QueryState>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Last 24 hours</CardTitle>
        </CardHeader>
        <CardContent>
          <QueryState
            query={history}
            isEmpty={(d) => d.healthchecks.length === 0}
            empty={<p className="text-sm text-muted-foreground">No checks recorded yet.</p>}
          >
            {(d) => {
              const bars = healthBars(d.healthchecks);
              const maxMs = Math.max(1, ...bars.map((b) => b.ms));
              const s = d.summary;
              return (
                <div className="space-y-3">
                  <div
                    className="flex h-16 items-end gap-0.5"
                    data-testid="health-sparkline"
                    aria-label="Health history"
                  >
                    {bars.map((b) => (
                      <span
                        key={b.at}
                        title={`${formatDateTime(b.at)} · ${b.status} · ${b.ms} ms`}
                        className={cn("min-w-1 flex-1 rounded-sm", HEALTH_COLOURS[b.status])}
                        style={{ height: `${b.status === "healthy" ? Math.max(15, (b.ms / maxMs) * 100) : 100}%` }}
                      />
                    ))}
                  </div>
                  <p className="text-xs text-muted-foreground">
                    {s.healthyCount} of {s.totalChecks} checks healthy · {s.uptime.toFixed(1)}% uptime · average{" "}
                    {Math.round(s.avgResponseMs)} ms · bar height is response time
                  </p>
                </div>
              );
            }}
          </QueryState>
        </CardContent>
      </Card>
    </div>
  );
}

function DeleteNode({ n }: { n: NodeInfo }): ReactElement {
  return (
    <DeleteResourceButton
      mutation={useNodeDeleteMutation()}
      id={n.id}
      name={n.name}
      description="The node is stopped and its configuration, ledger and logs are removed. Its ports become free."
      confirmLabel="Delete node"
      deletedTitle="Node deleted"
      redirectTo="/nodes"
    />
  );
}

function RenewCertificates({ n }: { n: NodeInfo }): ReactElement {
  const [open, setOpen] = useState(false);
  const m = useNodeActionMutation();
  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)}>
        <ShieldCheckIcon /> Renew certificates
      </Button>
      <AlertDialog open={open} onOpenChange={(v) => !m.isPending && setOpen(v)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Renew {n.name}'s certificates?</AlertDialogTitle>
            <AlertDialogDescription>
              Its organization's CAs reissue the signing and TLS certificates, and the node restarts.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={m.isPending}>Cancel</AlertDialogCancel>
            <Button
              disabled={m.isPending}
              onClick={() =>
                m.mutate(
                  { id: n.id, action: "renew" },
                  {
                    onSuccess: () => {
                      setOpen(false);
                      showToast("success", "Certificates renewed", { description: `${n.name} is restarting.` });
                    },
                    onError: () => setOpen(false),
                  },
                )
              }
            >
              {m.isPending && <Loader2Icon className="animate-spin" />}
              Renew and restart
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}

/** One node: status and actions, overview, certificates, events, live logs, health (and the Besu RPC console). */
export function NodeDetailPage(): ReactElement {
  const id = Number(useParams().id);
  const node = useNodeQuery(id);
  return (
    <QueryState query={node}>
      {(n) => {
        const fabric = Boolean(n.fabricPeer ?? n.fabricOrderer);
        const editHref = fabric ? `/nodes/fabric/edit/${n.id}` : `/nodes/besu/edit/${n.id}`;
        return (
          <div className="space-y-6">
            <PageHeader
              title={n.name}
              description={
                <span className="inline-flex flex-wrap items-center gap-2">
                  <NodeStatusBadge status={n.status} />
                  {NODE_TYPE_LABELS[n.nodeType] ?? n.nodeType}
                  {n.endpoint && <Mono>{n.endpoint}</Mono>}
                </span>
              }
              actions={
                <>
                  <NodeActions node={n} />
                  <RoleGate denied={["viewer"]}>
                    <Button variant="outline" asChild>
                      <Link to={editHref}>
                        <PencilIcon /> Edit
                      </Link>
                    </Button>
                    {fabric && <RenewCertificates n={n} />}
                    <DeleteNode n={n} />
                  </RoleGate>
                </>
              }
            />
            <NodeTroublePanel node={n} />
            <Tabs defaultValue="overview">
              <TabsList className="justify-start">
                <TabsTrigger value="overview">Overview</TabsTrigger>
                <TabsTrigger value="metrics">Metrics</TabsTrigger>
                {n.besuNode && <TabsTrigger value="rpc">RPC console</TabsTrigger>}
                {fabric && <TabsTrigger value="certificates">Certificates</TabsTrigger>}
                <TabsTrigger value="logs">Logs</TabsTrigger>
                <TabsTrigger value="events">Events</TabsTrigger>
                <TabsTrigger value="health">Health</TabsTrigger>
              </TabsList>
              <TabsContent value="overview" className="mt-4">
                <Overview n={n} />
              </TabsContent>
              <TabsContent value="metrics" className="mt-4">
                <Suspense fallback={<LoadingRows />}>
                  <NodeMetrics node={n} />
                </Suspense>
              </TabsContent>
              {n.besuNode && (
                <TabsContent value="rpc" className="mt-4">
                  <BesuConsole n={n} />
                </TabsContent>
              )}
              {fabric && (
                <TabsContent value="certificates" className="mt-4">
                  <Certificates n={n} />
                </TabsContent>
              )}
              <TabsContent value="logs" className="mt-4">
                <LogViewer nodeId={n.id} />
              </TabsContent>
              <TabsContent value="events" className="mt-4">
                <Events id={n.id} />
              </TabsContent>
              <TabsContent value="health" className="mt-4">
                <Health id={n.id} />
              </TabsContent>
            </Tabs>
          </div>
        );
      }}
    </QueryState>
  );
}
