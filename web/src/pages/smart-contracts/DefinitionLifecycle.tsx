import {
  CheckCircle2Icon,
  CircleDashedIcon,
  CircleDotIcon,
  Loader2Icon,
  RefreshCwIcon,
  UploadIcon,
} from "lucide-react";
import { useRef, useState, type ReactElement } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { isApiError } from "@/api/errors";
import { RoleGate } from "@/app/RoleGate";
import { OPERATORS } from "@/app/roles";
import { Mono } from "@/components/DetailField";
import { OperationProgress } from "@/components/OperationProgress";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import {
  uploadChaincodeSource,
  useLifecycleMutation,
  type LifecycleAction,
} from "@/data/chaincodes/chaincode-mutations";
import { useChaincodeLogsQuery, useDefinitionStatusQuery, useTimelineQuery } from "@/data/chaincodes/chaincode-queries";
import { chaincodeKeys } from "@/data/chaincodes/keys";
import type { ChaincodeDefinition } from "@/data/chaincodes/types";
import { showToast } from "@/lib/toast";
import { errorMessage, formatDateTime } from "@/lib/utils";
import { lifecycleSteps, peersByOrg, type StepState } from "@/pages/smart-contracts/chaincode-lifecycle";
import { ChaincodeStatusBadge } from "@/pages/smart-contracts/ChaincodeStatusBadge";
import { DefinitionContainer } from "@/pages/smart-contracts/DefinitionContainer";

function StepIcon({ state }: { state: StepState }): ReactElement {
  if (state === "done") return <CheckCircle2Icon className="size-4 text-success" aria-label="done" />;
  if (state === "partial") return <CircleDotIcon className="size-4 text-amber-600" aria-label="in progress" />;
  return <CircleDashedIcon className="size-4 text-muted-foreground" aria-label="to do" />;
}

/** A step's toast title: "Install done", "Approve for Org1MSP done". */
function stepTitle(label: string): string {
  const what = label.startsWith("approve-") ? `Approve for ${label.slice("approve-".length)}` : label;
  return `${what.charAt(0).toUpperCase()}${what.slice(1)} done`;
}

/** The server's message, with a build log when there is one. */
function ActionError({ error }: { error: unknown }): ReactElement {
  const body = isApiError(error)
    ? (error.body as { details?: { buildLog?: string; log?: string } } | undefined)
    : undefined;
  const log = body?.details?.buildLog || body?.details?.log;
  return (
    <div role="alert" className="grid gap-2 rounded-md border border-destructive/40 p-3 text-sm text-destructive">
      <p>{errorMessage(error)}</p>
      {log && (
        <pre className="max-h-64 overflow-auto rounded bg-muted/50 p-2 font-mono text-xs whitespace-pre-wrap text-foreground">
          {log}
        </pre>
      )}
    </div>
  );
}

/**
 * The lifecycle of one definition with live state from the peers (polled): a stepper (install,
 * approve, commit, deploy), each step's actions, the source upload, the timeline and the logs.
 */
export function DefinitionLifecycle({ def }: { def: ChaincodeDefinition }): ReactElement {
  const status = useDefinitionStatusQuery(def.id);
  const timeline = useTimelineQuery(def.id);
  const logs = useChaincodeLogsQuery(def.id);
  const act = useLifecycleMutation(def.id);
  const qc = useQueryClient();
  const [running, setRunning] = useState<string>();
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState<string>();
  const file = useRef<HTMLInputElement>(null);

  const run = (label: string, a: LifecycleAction): void => {
    setRunning(label);
    setError(undefined);
    setDone(undefined);
    act.mutate(a, {
      onSuccess: (r) => {
        const message = r.message ?? `${label}: done`;
        setDone(message);
        showToast("success", stepTitle(label), { description: message });
      },
      onError: (e) => setError(e),
      onSettled: () => setRunning(undefined),
    });
  };
  const upload = async (f: File): Promise<void> => {
    setRunning("upload");
    setError(undefined);
    try {
      await uploadChaincodeSource(def.id, f);
      setDone(`source ${f.name} uploaded`);
      await qc.invalidateQueries({ queryKey: chaincodeKeys.all });
    } catch (e) {
      setError(e);
    } finally {
      setRunning(undefined);
    }
  };
  const s = status.data;
  const steps = s ? lifecycleSteps(s, def.sequence) : undefined;
  const orgs = s ? peersByOrg(s) : [];
  const busy = running !== undefined;
  const spin = (label: string) => (running === label ? <Loader2Icon className="animate-spin" /> : null);

  return (
    <div className="grid grid-cols-1 gap-4">
      <ol className="flex flex-wrap gap-4" aria-label="Lifecycle">
        {(["install", "approve", "commit", "deploy"] as const).map((k, i) => (
          <li key={k} className="flex items-center gap-2 text-sm" data-step={k} data-state={steps?.[k] ?? "todo"}>
            <StepIcon state={steps?.[k] ?? "todo"} />
            <span className="capitalize">
              {i + 1}. {k}
            </span>
          </li>
        ))}
      </ol>
      <OperationProgress resource={`chaincode_definition:${def.id}`} />
      {status.isError && <ActionError error={status.error} />}
      {s?.readiness_error && <p className="text-sm text-muted-foreground">Approvals unknown: {s.readiness_error}</p>}
      {error !== undefined && <ActionError error={error} />}
      {done && (
        <p role="status" className="text-sm text-success">
          {done}
        </p>
      )}

      <Card>
        <CardHeader className="flex flex-row items-center justify-between gap-2">
          <CardTitle className="text-base">Install on peers</CardTitle>
          <RoleGate allowed={OPERATORS}>
            <Button
              size="sm"
              disabled={busy || !s || s.peers.length === 0}
              onClick={() => s && run("install", { action: "install", peer_ids: s.peers.map((p) => p.peer_id) })}
            >
              {spin("install")} Install
            </Button>
          </RoleGate>
        </CardHeader>
        <CardContent>
          {s && (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Peer</TableHead>
                  <TableHead>Org</TableHead>
                  <TableHead>Installed</TableHead>
                  <TableHead>Package</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {s.peers.map((p) => (
                  <TableRow key={p.peer_id} data-testid={`peer-${p.peer_name}`}>
                    <TableCell>
                      {p.peer_name} <span className="text-xs text-muted-foreground">({p.status})</span>
                    </TableCell>
                    <TableCell>{p.msp_id}</TableCell>
                    <TableCell>
                      {p.installed ? <Badge variant="success">Installed</Badge> : <Badge variant="secondary">No</Badge>}
                    </TableCell>
                    <TableCell className="whitespace-normal">
                      <Mono>{p.error ?? (p.package_ids.join(", ") || "—")}</Mono>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          {s?.package_id && (
            <p className="mt-2 text-xs text-muted-foreground">
              This definition installs <Mono>{s.package_id}</Mono>
            </p>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle className="text-base">Approve per organization</CardTitle>
        </CardHeader>
        <CardContent>
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Org</TableHead>
                <TableHead>Approved</TableHead>
                <TableHead className="text-right">Action</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {(s?.orgs ?? []).map((o) => {
                const actor = orgs.find((g) => g.mspId === o.msp_id)?.actor;
                return (
                  <TableRow key={o.msp_id} data-testid={`org-${o.msp_id}`}>
                    <TableCell>{o.msp_id}</TableCell>
                    <TableCell>
                      {o.approved ? (
                        <Badge variant="success">Approved</Badge>
                      ) : (
                        <Badge variant="secondary">Not yet</Badge>
                      )}
                    </TableCell>
                    <TableCell className="text-right">
                      {actor !== undefined && !o.approved && (
                        <RoleGate allowed={OPERATORS}>
                          <Button
                            size="sm"
                            variant="outline"
                            disabled={busy}
                            aria-label={`Approve for ${o.msp_id}`}
                            onClick={() => run(`approve-${o.msp_id}`, { action: "approve", peer_id: actor })}
                          >
                            {spin(`approve-${o.msp_id}`)} Approve
                          </Button>
                        </RoleGate>
                      )}
                      {actor === undefined && <span className="text-xs text-muted-foreground">no peer here</span>}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </CardContent>
      </Card>

      <Card>
        <CardHeader className="flex flex-row items-center justify-between gap-2">
          <CardTitle className="text-base">Commit on the channel</CardTitle>
          <RoleGate allowed={OPERATORS}>
            <Button
              size="sm"
              disabled={busy || !s || steps?.commit === "done" || orgs.length === 0}
              onClick={() => {
                const peer = orgs.find((o) => o.actor !== undefined)?.actor;
                if (peer !== undefined) run("commit", { action: "commit", peer_id: peer });
              }}
            >
              {spin("commit")} Commit
            </Button>
          </RoleGate>
        </CardHeader>
        <CardContent className="text-sm">
          {s?.committed
            ? `Committed on ${s.channel}: version ${s.committed.version}, sequence ${s.committed.sequence}`
            : `Nothing committed on ${s?.channel ?? "the channel"} yet`}
        </CardContent>
      </Card>

      <Card>
        <CardHeader className="flex flex-row items-center justify-between gap-2">
          <CardTitle className="text-base">Chaincode server</CardTitle>
          <RoleGate allowed={OPERATORS}>
            <div className="flex gap-2">
              <input
                ref={file}
                type="file"
                className="hidden"
                aria-label="Source archive"
                onChange={(e) => {
                  const f = e.target.files?.[0];
                  if (f) void upload(f);
                  e.target.value = "";
                }}
              />
              <Button size="sm" variant="outline" disabled={busy} onClick={() => file.current?.click()}>
                {running === "upload" ? <Loader2Icon className="animate-spin" /> : <UploadIcon />} Upload source
              </Button>
              {(s?.deploy.status ?? def.deploy_status) === "running" ? (
                <Button
                  size="sm"
                  variant="outline"
                  disabled={busy}
                  onClick={() => run("undeploy", { action: "undeploy" })}
                >
                  {spin("undeploy")} Undeploy
                </Button>
              ) : (
                <Button size="sm" disabled={busy} onClick={() => run("deploy", { action: "deploy" })}>
                  {spin("deploy")} Deploy
                </Button>
              )}
            </div>
          </RoleGate>
        </CardHeader>
        <CardContent className="grid gap-2 text-sm">
          <div className="flex flex-wrap items-center gap-2">
            <ChaincodeStatusBadge status={s?.deploy.status ?? def.deploy_status} />
            <span>
              {def.source_type === "none"
                ? "No source yet"
                : def.source_type === "docker"
                  ? "Docker image"
                  : `${def.source_type} source`}{" "}
              · listens on <Mono>{def.chaincode_address}</Mono>
              {s?.deploy.pid ? ` · pid ${s.deploy.pid}` : ""}
              {s?.deploy.restarts ? ` · ${s.deploy.restarts} restarts` : ""}
            </span>
          </div>
          {def.source_type === "docker" && (
            <DefinitionContainer
              definitionId={def.id}
              deployed={(s?.deploy.status ?? def.deploy_status) === "running"}
            />
          )}
          {(s?.deploy.error ?? def.deploy_error) && (
            <p className="text-destructive">{s?.deploy.error ?? def.deploy_error}</p>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle className="text-base">Timeline</CardTitle>
        </CardHeader>
        <CardContent>
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>When</TableHead>
                <TableHead>Step</TableHead>
                <TableHead>Outcome</TableHead>
                <TableHead>Who / where</TableHead>
                <TableHead>Details</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {[...(timeline.data ?? [])].reverse().map((e) => {
                const d = (e.event_data ?? {}) as Record<string, unknown>;
                const who = [d.user, d.peer_name, d.msp_id].filter(Boolean).join(" · ");
                return (
                  <TableRow key={e.id}>
                    <TableCell className="whitespace-nowrap">{formatDateTime(e.created_at)}</TableCell>
                    <TableCell>{e.event_type}</TableCell>
                    <TableCell>
                      <Badge
                        variant={
                          d.status === "failed" ? "destructive" : d.status === "success" ? "success" : "secondary"
                        }
                      >
                        {String(d.status ?? "")}
                      </Badge>
                    </TableCell>
                    <TableCell>{who || "—"}</TableCell>
                    <TableCell className="max-w-md whitespace-normal">
                      <span className="text-xs break-all">
                        {d.already
                          ? `already ${String(d.already)}; nothing sent`
                          : String(d.error ?? d.tx_id ?? d.package_id ?? "")}
                      </span>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </CardContent>
      </Card>

      <Card>
        <CardHeader className="flex flex-row items-center justify-between gap-2">
          <CardTitle className="text-base">Process logs</CardTitle>
          <Button size="sm" variant="outline" onClick={() => void logs.refetch()} aria-label="Refresh logs">
            <RefreshCwIcon /> Refresh
          </Button>
        </CardHeader>
        <CardContent>
          <pre className="max-h-80 overflow-auto rounded-md bg-muted/50 p-2 font-mono text-xs whitespace-pre-wrap">
            {logs.data || "No log lines yet."}
          </pre>
        </CardContent>
      </Card>
    </div>
  );
}
