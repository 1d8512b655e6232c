import { ChevronDownIcon, ChevronRightIcon } from "lucide-react";
import { useMemo, useReducer, useState, type ReactElement, type ReactNode } from "react";
import { Link } from "react-router";
import { OperatorsOnly } from "@/app/OperatorsOnly";
import { FailedRetry, StepIcon } from "@/components/progress";
import { ORGANIZATION_LIST_LIMIT } from "@/app/constants";
import { PageHeader, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { joinNode, useFabricNetworkCreateMutation } from "@/data/fabric-networks/fabric-network-mutations";
import { fetchNodeStatus, startNode, useFabricBulkDefaultsQuery } from "@/data/fabric-wizard/fabric-defaults-query";
import { useNodeCreateMutation } from "@/data/nodes/node-mutations";
import { useNodesQuery } from "@/data/nodes/nodes-query";
import { useOrganizationCreateMutation } from "@/data/organizations/organization-create-mutation";
import { useOrganizationsQuery } from "@/data/organizations/organizations-query";
import { CHANNEL_NAME_RULE } from "@/pages/networks/fabric-network";
import {
  allDone,
  buildPlan,
  channelBody,
  channelErrors,
  countError,
  DEFAULT_ORDERERS,
  DEFAULT_PEERS,
  EMPTY_WIZARD,
  initialContext,
  nextAction,
  nodeBody,
  nodeErrors,
  nodeSpecsFrom,
  orgError,
  progressSummary,
  wizardReducer,
  type ContextPatch,
  type NodeSpec,
  type OrgChoice,
  type ProgressAction,
  type ProgressRow,
  type WizardContext,
  type WizardForm,
  type WizardState,
} from "@/pages/fabric-wizard/wizard-plan";
import { MSP_ID_RULE } from "@/pages/organizations/organization-form";
import { errorMessage } from "@/lib/utils";

const STEPS = ["Organization", "Nodes", "Channel", "Review"] as const;
/** How long a new node may take to reach RUNNING before its row fails (Retry waits again). */
const RUNNING_TIMEOUT_MS = 180_000;
const POLL_MS = 2000;

function Stepper({ step }: { step: number }): ReactElement {
  return (
    <ol className="mb-6 flex flex-wrap items-center gap-2 text-sm" aria-label="Wizard steps">
      {STEPS.map((s, i) => (
        <li key={s} className="flex items-center gap-2" aria-current={i === step ? "step" : undefined}>
          <span
            className={
              "flex size-6 items-center justify-center rounded-full border text-xs " +
              (i < step
                ? "border-primary bg-primary text-primary-foreground"
                : i === step
                  ? "border-primary text-primary"
                  : "text-muted-foreground")
            }
          >
            {i + 1}
          </span>
          <span className={i === step ? "font-medium" : "text-muted-foreground"}>{s}</span>
          {i < STEPS.length - 1 && <ChevronRightIcon className="size-4 text-muted-foreground" />}
        </li>
      ))}
    </ol>
  );
}

function Field({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: string;
  children: ReactNode;
}): ReactElement {
  return (
    <div className="grid content-start gap-2">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {hint && <p className="text-xs text-muted-foreground">{hint}</p>}
      <FieldError message={error} />
    </div>
  );
}

const NODE_FIELDS: { f: keyof NodeSpec; label: string; role?: "peer" | "orderer" }[] = [
  { f: "name", label: "Name" },
  { f: "listenAddress", label: "Listen address" },
  { f: "chaincodeAddress", label: "Chaincode address", role: "peer" },
  { f: "adminAddress", label: "Admin address", role: "orderer" },
  { f: "operationsListenAddress", label: "Operations address" },
  { f: "externalEndpoint", label: "External endpoint" },
];

/** The progress view: one row per action, Retry on the failed one. */
function Progress({
  state,
  running,
  onRetry,
}: {
  state: WizardState;
  running: boolean;
  onRetry: (r: ProgressRow) => void;
}): ReactElement {
  const sum = progressSummary(state.rows);
  const done = allDone(state);
  const { networkId, networkName } = state.ctx;
  return (
    <Card className="gap-0 pb-0" data-testid="wizard-progress" data-done={done ? "true" : "false"}>
      <CardHeader className="flex flex-row items-center justify-between gap-2 pb-4">
        <div>
          <CardTitle className="text-base">{done ? "Your channel is running" : "Creating your network"}</CardTitle>
          <CardDescription>
            {sum.done} of {state.rows.length} done{sum.failed > 0 ? ` · ${sum.failed} failed` : ""}
          </CardDescription>
        </div>
        {done && networkId !== undefined && (
          <Button asChild>
            <Link to={`/networks/${networkId}/fabric`}>Open network {networkName}</Link>
          </Button>
        )}
      </CardHeader>
      <div className="border-t">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead className="w-8">
                <span className="sr-only">State</span>
              </TableHead>
              <TableHead>Action</TableHead>
              <TableHead>Status</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {state.rows.map((r) => (
              <TableRow key={r.key} data-testid={`wizard-row-${r.key}`} data-state={r.state}>
                <TableCell>
                  <StepIcon state={r.state} />
                </TableCell>
                <TableCell className="font-medium whitespace-normal">{r.label}</TableCell>
                <TableCell className="whitespace-normal">
                  {r.state === "pending" && <Badge variant="secondary">Pending</Badge>}
                  {r.state === "running" && (
                    <div className="flex flex-wrap items-center gap-2">
                      <Badge variant="warning">Running…</Badge>
                      {r.message && <span className="text-xs text-muted-foreground">{r.message}</span>}
                    </div>
                  )}
                  {r.state === "done" && <Badge variant="success">Done</Badge>}
                  {r.state === "failed" && (
                    <FailedRetry name={r.label} message={r.message} disabled={running} onRetry={() => onRetry(r)} />
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </Card>
  );
}

function WizardContent(): ReactElement {
  const orgs = useOrganizationsQuery(ORGANIZATION_LIST_LIMIT);
  const createOrg = useOrganizationCreateMutation();
  const createNode = useNodeCreateMutation(true);
  const createNetwork = useFabricNetworkCreateMutation();

  const [step, setStep] = useState(0);
  const [showErrors, setShowErrors] = useState(false);
  const [org, setOrg] = useState<OrgChoice>({ mode: "new", mspId: "", name: "", description: "" });
  const [peers, setPeers] = useState(String(DEFAULT_PEERS));
  const [orderers, setOrderers] = useState(String(DEFAULT_ORDERERS));
  const [advanced, setAdvanced] = useState(false);
  const [edits, setEdits] = useState<Record<string, Partial<NodeSpec>>>({});
  const [channel, setChannel] = useState({ name: "", batchTimeout: "2s" });
  const [form, setForm] = useState<WizardForm>();
  const [state, dispatch] = useReducer(wizardReducer, EMPTY_WIZARD);
  const [running, setRunning] = useState(false);

  const orgList = useMemo(() => orgs.data?.items ?? [], [orgs.data]);
  const counts = { peers: countError(peers, "peer"), orderers: countError(orderers, "orderer") };
  const countsOk = !counts.peers && !counts.orderers;
  const defaults = useFabricBulkDefaultsQuery(Number(peers), Number(orderers), step >= 1 && countsOk && !form);
  // Names already in use, so proposed names don't collide (an existing org may have peer0-org1 already).
  const fabricNodes = useNodesQuery({ page: 1, limit: 1000, platform: "FABRIC" });
  const taken = useMemo(() => (fabricNodes.data?.items ?? []).map((n) => n.name), [fabricNodes.data]);
  const nodes = useMemo(() => {
    if (!defaults.data || !countsOk) return [];
    const base = nodeSpecsFrom(defaults.data, org.mspId.trim() || "org", taken);
    return base.map((n) => ({ ...n, ...edits[n.key] }));
  }, [defaults.data, countsOk, org.mspId, taken, edits]);

  const errs = {
    org: orgError(
      org,
      orgList.map((o) => o.mspId),
    ),
    nodes: nodeErrors(nodes),
    channel: channelErrors(channel),
  };
  const stepOk = [
    !errs.org,
    countsOk && nodes.length > 0 && Object.keys(errs.nodes).length === 0,
    Object.keys(errs.channel).length === 0,
    true,
  ];
  const shown = (e: string | undefined): string | undefined => (showErrors ? e : undefined);

  const next = (): void => {
    if (!stepOk[step]) {
      setShowErrors(true);
      if (step === 1 && Object.keys(errs.nodes).length > 0) setAdvanced(true);
      return;
    }
    setShowErrors(false);
    setStep(step + 1);
  };

  // ---- running the plan ----

  const execute = async (r: ProgressRow, ctx: WizardContext, f: WizardForm, retry: boolean): Promise<ContextPatch> => {
    switch (r.kind) {
      case "create-org": {
        if (f.org.mode !== "new") return {};
        const o = await createOrg.mutateAsync({
          mspId: f.org.mspId.trim(),
          name: f.org.name.trim() || f.org.mspId.trim(),
          ...(f.org.description.trim() ? { description: f.org.description.trim() } : {}),
        });
        return { orgId: o.id };
      }
      case "create-node": {
        const n = await createNode.mutateAsync({ body: nodeBody(r.node!, ctx.orgId ?? 0, ctx.mspId) });
        return { nodeId: [r.node!.key, n.id] };
      }
      case "wait-node": {
        const id = ctx.nodeIds[r.node!.key]!;
        const until = Date.now() + RUNNING_TIMEOUT_MS;
        let restarted = !retry;
        for (;;) {
          const n = await fetchNodeStatus(id);
          if (n.status === "RUNNING") return {};
          if (!restarted && (n.status === "ERROR" || n.status === "STOPPED")) {
            // Retrying a node that stopped or failed to start: start it again.
            restarted = true;
            await startNode(id);
          } else if (n.status === "ERROR") {
            throw new Error(n.errorMessage || "The node failed to start");
          }
          if (Date.now() > until) throw new Error(`Still ${n.status} after ${RUNNING_TIMEOUT_MS / 1000}s`);
          dispatch({ type: "note", key: r.key, message: n.status });
          await new Promise((res) => setTimeout(res, POLL_MS));
        }
      }
      case "create-channel": {
        const n = await createNetwork.mutateAsync(channelBody(f, ctx));
        return { networkId: n.id, networkName: n.name };
      }
      case "join": {
        await joinNode(ctx.networkId!, r.node!.role, ctx.nodeIds[r.node!.key]!);
        return {};
      }
    }
  };

  /** Runs pending actions in order from `from`; stops at the first failure. */
  const runFrom = async (from: WizardState, f: WizardForm, retryKey?: string): Promise<void> => {
    let s = from;
    const act = (a: ProgressAction): void => {
      s = wizardReducer(s, a);
      dispatch(a);
    };
    setRunning(true);
    try {
      for (let r = nextAction(s, retryKey); r; r = nextAction(s)) {
        act({ type: "start", key: r.key });
        try {
          const patch = await execute(r, s.ctx, f, r.key === retryKey);
          act({ type: "done", key: r.key, patch });
        } catch (e) {
          act({ type: "failed", key: r.key, error: errorMessage(e) });
          break;
        }
      }
    } finally {
      setRunning(false);
    }
  };

  const create = (): void => {
    const f: WizardForm = { org, nodes, channel };
    setForm(f);
    const plan: ProgressAction = { type: "plan", actions: buildPlan(f), ctx: initialContext(f) };
    dispatch(plan);
    void runFrom(wizardReducer(EMPTY_WIZARD, plan), f);
  };

  if (form) {
    return (
      <div className="max-w-4xl space-y-6">
        <PageHeader
          title="Fabric Network Wizard"
          description="Each action runs in order; if one fails, fix the cause and retry it — nothing already done is redone."
        />
        <Progress
          state={state}
          running={running}
          onRetry={(r) => {
            void runFrom(state, form, r.key);
          }}
        />
      </div>
    );
  }

  const setNode = (key: string, f: keyof NodeSpec, v: string): void =>
    setEdits((e) => ({ ...e, [key]: { ...e[key], [f]: v } }));

  return (
    <div className="max-w-3xl">
      <PageHeader
        title="Fabric Network Wizard"
        description="From nothing to a running channel: an organization, its peers and orderers, then the channel with every node joined."
      />
      <Stepper step={step} />
      <QueryState query={orgs}>
        {() => (
          <Card data-testid={`wizard-step-${step + 1}`}>
            {step === 0 && (
              <>
                <CardHeader>
                  <CardTitle className="text-base">Organization</CardTitle>
                  <CardDescription>
                    The MSP that owns the nodes and the channel. A new one gets its CAs and an admin identity.
                  </CardDescription>
                </CardHeader>
                <CardContent className="grid gap-4">
                  <div className="flex flex-wrap gap-4 text-sm" role="radiogroup" aria-label="Organization">
                    <label className="flex items-center gap-2">
                      <input
                        type="radio"
                        name="org-mode"
                        className="accent-primary"
                        checked={org.mode === "new"}
                        onChange={() => setOrg({ mode: "new", mspId: "", name: "", description: "" })}
                      />
                      Create a new organization
                    </label>
                    <label className="flex items-center gap-2">
                      <input
                        type="radio"
                        name="org-mode"
                        className="accent-primary"
                        checked={org.mode === "existing"}
                        disabled={orgList.length === 0}
                        onChange={() =>
                          setOrg({ mode: "existing", orgId: orgList[0]?.id ?? 0, mspId: orgList[0]?.mspId ?? "" })
                        }
                      />
                      Use an existing organization
                    </label>
                  </div>
                  {org.mode === "new" ? (
                    <div className="grid gap-4 sm:grid-cols-2">
                      <Field id="wiz-mspId" label="MSP ID" error={shown(errs.org)} hint={MSP_ID_RULE}>
                        <Input
                          id="wiz-mspId"
                          placeholder="Org1MSP"
                          value={org.mspId}
                          aria-invalid={Boolean(shown(errs.org))}
                          onChange={(e) => setOrg({ ...org, mspId: e.target.value })}
                        />
                      </Field>
                      <Field id="wiz-orgName" label="Organization name">
                        <Input
                          id="wiz-orgName"
                          placeholder="Defaults to the MSP ID"
                          value={org.name}
                          onChange={(e) => setOrg({ ...org, name: e.target.value })}
                        />
                      </Field>
                      <div className="sm:col-span-2">
                        <Field id="wiz-orgDescription" label="Description">
                          <Input
                            id="wiz-orgDescription"
                            placeholder="Optional"
                            value={org.description}
                            onChange={(e) => setOrg({ ...org, description: e.target.value })}
                          />
                        </Field>
                      </div>
                    </div>
                  ) : (
                    <Field id="wiz-org" label="Existing organization" error={shown(errs.org)}>
                      <Select
                        value={org.orgId ? String(org.orgId) : ""}
                        onValueChange={(v) => {
                          const o = orgList.find((x) => String(x.id) === v);
                          if (o) setOrg({ mode: "existing", orgId: o.id, mspId: o.mspId });
                        }}
                      >
                        <SelectTrigger id="wiz-org" aria-label="Existing organization">
                          <SelectValue placeholder="Choose an organization" />
                        </SelectTrigger>
                        <SelectContent>
                          {orgList.map((o) => (
                            <SelectItem key={o.id} value={String(o.id)}>
                              {o.mspId}
                            </SelectItem>
                          ))}
                        </SelectContent>
                      </Select>
                    </Field>
                  )}
                </CardContent>
              </>
            )}
            {step === 1 && (
              <>
                <CardHeader>
                  <CardTitle className="text-base">Nodes</CardTitle>
                  <CardDescription>
                    Peers hold the ledger and run chaincode; orderers cut blocks. Raft needs 3 orderers to survive one
                    failing.
                  </CardDescription>
                </CardHeader>
                <CardContent className="grid gap-4">
                  <div className="grid gap-4 sm:grid-cols-2">
                    <Field id="wiz-peers" label="Peers" error={counts.peers}>
                      <Input
                        id="wiz-peers"
                        inputMode="numeric"
                        value={peers}
                        aria-invalid={Boolean(counts.peers)}
                        onChange={(e) => setPeers(e.target.value)}
                      />
                    </Field>
                    <Field
                      id="wiz-orderers"
                      label="Orderers"
                      error={counts.orderers}
                      hint={Number(orderers) < 3 ? "Fewer than 3 raft orderers can't tolerate a failure." : undefined}
                    >
                      <Input
                        id="wiz-orderers"
                        inputMode="numeric"
                        value={orderers}
                        aria-invalid={Boolean(counts.orderers)}
                        onChange={(e) => setOrderers(e.target.value)}
                      />
                    </Field>
                  </div>
                  {defaults.isError && <FieldError message={errorMessage(defaults.error)} />}
                  {countsOk && defaults.isPending && (
                    <p className="text-sm text-muted-foreground">Finding free ports…</p>
                  )}
                  {nodes.length > 0 && (
                    <div className="rounded-lg border" data-testid="wizard-nodes">
                      <button
                        type="button"
                        className="flex w-full items-center justify-between gap-2 p-3 text-left text-sm font-medium"
                        aria-expanded={advanced}
                        onClick={() => setAdvanced(!advanced)}
                      >
                        <span>
                          {nodes.length} nodes: {nodes.map((n) => n.name).join(", ")}
                        </span>
                        <span className="flex items-center gap-1 text-muted-foreground">
                          Advanced
                          {advanced ? <ChevronDownIcon className="size-4" /> : <ChevronRightIcon className="size-4" />}
                        </span>
                      </button>
                      {advanced && (
                        <div className="grid gap-4 border-t p-3">
                          {nodes.map((n) => (
                            <fieldset key={n.key} className="grid gap-3 sm:grid-cols-2">
                              <legend className="mb-2 text-sm font-medium capitalize">
                                {n.role} {n.key.split("-")[1]}
                              </legend>
                              {NODE_FIELDS.filter((x) => !x.role || x.role === n.role).map((x) => (
                                <Field
                                  key={x.f}
                                  id={`wiz-${n.key}-${x.f}`}
                                  label={x.label}
                                  error={errs.nodes[`${n.key}.${x.f}`]}
                                >
                                  <Input
                                    id={`wiz-${n.key}-${x.f}`}
                                    value={n[x.f]}
                                    aria-invalid={Boolean(errs.nodes[`${n.key}.${x.f}`])}
                                    onChange={(e) => setNode(n.key, x.f, e.target.value)}
                                  />
                                </Field>
                              ))}
                            </fieldset>
                          ))}
                        </div>
                      )}
                    </div>
                  )}
                </CardContent>
              </>
            )}
            {step === 2 && (
              <>
                <CardHeader>
                  <CardTitle className="text-base">Channel</CardTitle>
                  <CardDescription>Raft (etcdraft) consensus among your orderers; every node joins it.</CardDescription>
                </CardHeader>
                <CardContent className="grid gap-4 sm:grid-cols-2">
                  <Field
                    id="wiz-channel"
                    label="Channel name"
                    error={shown(errs.channel.name)}
                    hint={CHANNEL_NAME_RULE}
                  >
                    <Input
                      id="wiz-channel"
                      placeholder="mychannel"
                      value={channel.name}
                      aria-invalid={Boolean(shown(errs.channel.name))}
                      onChange={(e) => setChannel({ ...channel, name: e.target.value })}
                    />
                  </Field>
                  <Field
                    id="wiz-batchTimeout"
                    label="Batch timeout"
                    error={shown(errs.channel.batchTimeout)}
                    hint="How long orderers wait before cutting a block."
                  >
                    <Input
                      id="wiz-batchTimeout"
                      value={channel.batchTimeout}
                      aria-invalid={Boolean(shown(errs.channel.batchTimeout))}
                      onChange={(e) => setChannel({ ...channel, batchTimeout: e.target.value })}
                    />
                  </Field>
                  <Field id="wiz-consensus" label="Consensus">
                    <Input id="wiz-consensus" value="Raft (etcdraft)" readOnly disabled />
                  </Field>
                </CardContent>
              </>
            )}
            {step === 3 && (
              <>
                <CardHeader>
                  <CardTitle className="text-base">Review</CardTitle>
                  <CardDescription>These actions run in order once you press Create network.</CardDescription>
                </CardHeader>
                <CardContent>
                  <dl className="mb-4 grid gap-2 text-sm sm:grid-cols-[10rem_1fr]">
                    <dt className="text-muted-foreground">Organization</dt>
                    <dd>
                      {org.mspId.trim()} {org.mode === "new" ? "(new)" : "(existing)"}
                    </dd>
                    <dt className="text-muted-foreground">Orderers</dt>
                    <dd>
                      {nodes
                        .filter((n) => n.role === "orderer")
                        .map((n) => `${n.name} (${n.externalEndpoint})`)
                        .join(", ")}
                    </dd>
                    <dt className="text-muted-foreground">Peers</dt>
                    <dd>
                      {nodes
                        .filter((n) => n.role === "peer")
                        .map((n) => `${n.name} (${n.externalEndpoint})`)
                        .join(", ")}
                    </dd>
                    <dt className="text-muted-foreground">Channel</dt>
                    <dd>
                      {channel.name.trim()} · etcdraft · batch timeout {channel.batchTimeout.trim() || "default"}
                    </dd>
                  </dl>
                  <ol className="list-decimal space-y-1 pl-5 text-sm" data-testid="wizard-plan">
                    {buildPlan({ org, nodes, channel }).map((a) => (
                      <li key={a.key}>{a.label}</li>
                    ))}
                  </ol>
                </CardContent>
              </>
            )}
            <CardFooter className="justify-between">
              <Button variant="outline" disabled={step === 0} onClick={() => setStep(step - 1)}>
                Back
              </Button>
              {step < STEPS.length - 1 ? (
                <Button onClick={next} disabled={step === 1 && (!countsOk || defaults.isFetching)}>
                  Next
                </Button>
              ) : (
                <Button onClick={create}>Create network</Button>
              )}
            </CardFooter>
          </Card>
        )}
      </QueryState>
    </div>
  );
}

/** Viewers can't create networks; they see why instead of a wizard the server would refuse. */
export function FabricWizardPage(): ReactElement {
  return (
    <OperatorsOnly what="create networks">
      <WizardContent />
    </OperatorsOnly>
  );
}
