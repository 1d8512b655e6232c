import { Loader2Icon } from "lucide-react";
import { FormSection } from "@/components/FormSection";
import { StepIcon } from "@/components/progress";
import { useEffect, useReducer, useRef, useState, type ReactElement } from "react";
import { useForm } from "react-hook-form";
import { Link, useNavigate } from "react-router";
import { useQueries } from "@tanstack/react-query";
import { api, unwrap, type BulkCreateBesuResult } from "@/api/client";
import { useLiveEvent } from "@/app/notifications/NotificationsProvider";
import { OperatorsOnly } from "@/app/OperatorsOnly";
import { PageHeader } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { useBesuBulkCreateMutation } from "@/data/besu-networks/besu-network-bulk-create-mutation";
import { nodeKeys } from "@/data/nodes/keys";
import { isTransientStatus, NODE_POLL_MS } from "@/data/nodes/node-status";
import { formErrorsFrom } from "@/lib/field-errors";
import { showToast } from "@/lib/toast";
import {
  BULK_FORM_DEFAULTS,
  BULK_FORM_FIELDS,
  BULK_IDLE,
  BULK_PROGRESS_EVENT,
  MAX_BULK_NODES,
  bulkProgressReducer,
  bulkOutcome,
  bulkSteps,
  toBulkCreateBody,
  type BulkFormValues,
} from "@/pages/networks/besu-bulk";
import { QbftConsensusSection, WholeNumberField } from "@/pages/networks/QbftFields";
import { PrefundedAccountsSection } from "@/pages/networks/PrefundedAccountsSection";
import { NodeStatusBadge } from "@/pages/nodes/NodeStatusBadge";

/** The created nodes as they are now (polled while any is starting), so "ready" means running. */
function useLiveNodes(result: BulkCreateBesuResult | undefined): BulkCreateBesuResult["nodes"] {
  const live = useQueries({
    queries: (result?.nodes ?? []).map((n) => ({
      queryKey: nodeKeys.detail(n.id),
      queryFn: () => unwrap(api.GET("/nodes/{id}", { params: { path: { id: n.id } } })),
      initialData: n,
      refetchInterval: (q: { state: { data?: { status: string } } }) =>
        q.state.data && isTransientStatus(q.state.data.status) ? NODE_POLL_MS : false,
    })),
  });
  return (result?.nodes ?? []).map((n, i) => live[i]?.data ?? n);
}

function Result({
  result,
  nodes,
}: {
  result: BulkCreateBesuResult;
  nodes: BulkCreateBesuResult["nodes"];
}): ReactElement {
  return (
    <div className="grid gap-3" data-testid="bulk-result">
      <p className="text-sm">
        <Link to={`/networks/${result.network.id}/besu`} className="font-medium hover:underline">
          Open network {result.network.name}
        </Link>{" "}
        <span className="text-muted-foreground">(chain {result.network.chainId})</span>
      </p>
      <ul className="grid gap-1 text-sm">
        {nodes.map((n) => (
          <li key={n.id} className="flex flex-wrap items-center gap-2">
            <Link to={`/nodes/${n.id}`} className="hover:underline">
              {n.name}
            </Link>
            <NodeStatusBadge status={n.status} />
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Scrolls the page (or the nearest scrolling pane) just enough that `el`'s bottom is visible. */
function revealBottom(el: HTMLElement): void {
  let pane = el.parentElement;
  while (pane && !/(auto|scroll)/.test(getComputedStyle(pane).overflowY)) pane = pane.parentElement;
  const bottom = pane ? pane.getBoundingClientRect().bottom : window.innerHeight;
  const below = el.getBoundingClientRect().bottom - bottom + 16;
  if (below <= 0) return;
  if (pane) pane.scrollBy({ top: below, behavior: "smooth" });
  else window.scrollBy({ top: below, behavior: "smooth" });
}

/** N validator keys, a QBFT network with them as validators, and N nodes wired to the first as bootnode. */
function BesuBulkCreateContent(): ReactElement {
  const navigate = useNavigate();
  const create = useBesuBulkCreateMutation();
  const [progress, dispatch] = useReducer(bulkProgressReducer, BULK_IDLE);
  const [result, setResult] = useState<BulkCreateBesuResult>();
  const [started, setStarted] = useState(true);
  const liveNodes = useLiveNodes(result);
  const outcome = result ? bulkOutcome(result.network.name, liveNodes, started) : undefined;
  const {
    register,
    control,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<BulkFormValues>({ defaultValues: BULK_FORM_DEFAULTS });

  useLiveEvent(BULK_PROGRESS_EVENT, (e) => dispatch({ type: "event", data: e.data }));

  // The steps appear below the long form: bring them into view when a run starts and when it ends.
  const progressRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (progress.status !== "idle" && progressRef.current) revealBottom(progressRef.current);
  }, [progress.status]);

  const onSubmit = handleSubmit((v) => {
    const body = toBulkCreateBody(v);
    setResult(undefined);
    setStarted(body.start !== false);
    dispatch({ type: "start", networkName: body.networkName, total: body.nodeCount });
    create.mutate(body, {
      onSuccess: (r) => {
        dispatch({ type: "succeeded" });
        setResult(r);
        showToast("success", "Besu network created", {
          description: `${r.network.name} with ${r.nodes.length} validator node${r.nodes.length === 1 ? "" : "s"}.`,
        });
      },
      onError: (e) => {
        dispatch({ type: "failed", error: e.message });
        for (const [field, message] of Object.entries(formErrorsFrom(e, BULK_FORM_FIELDS))) {
          setError(field as keyof BulkFormValues, { message: message as string });
        }
      },
    });
  });

  const locked = progress.status === "running" || progress.status === "done";

  return (
    <div className="max-w-3xl">
      <PageHeader
        title="Create Besu Network"
        description="One flow: ChainLaunch creates the validator keys, the QBFT network with them as validators, and one node per validator wired to the first as bootnode."
      />
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="space-y-6">
        <fieldset disabled={locked} className="space-y-6">
          <FormSection title="Network" description="Nodes are named <network>-node-<i>; the chain id must be unique.">
            <div className="grid gap-4 sm:grid-cols-2">
              <div className="grid content-start gap-2">
                <Label htmlFor="bulk-networkName">Network name</Label>
                <Input
                  id="bulk-networkName"
                  placeholder="testnet"
                  aria-invalid={Boolean(errors.networkName)}
                  {...register("networkName", {
                    required: "Network name is required",
                    maxLength: { value: 80, message: "At most 80 characters" },
                  })}
                />
                <FieldError message={errors.networkName?.message} />
              </div>
              <WholeNumberField
                register={register}
                errors={errors}
                name="chainId"
                id="bulk-chainId"
                label="Chain ID"
                min={1}
                hint="EIP-155 chain id, e.g. 1337"
              />
            </div>
            <div className="grid content-start gap-2">
              <Label htmlFor="bulk-description">Description</Label>
              <Input id="bulk-description" placeholder="Optional" {...register("description")} />
              <FieldError message={errors.description?.message} />
            </div>
          </FormSection>
          <FormSection
            title="Validator nodes"
            description="Each validator gets a new secp256k1 key and a node with free ports proposed by the server."
          >
            <div className="grid gap-4 sm:grid-cols-2">
              <WholeNumberField
                register={register}
                errors={errors}
                name="nodeCount"
                id="bulk-nodeCount"
                label="Number of validator nodes"
                min={1}
                max={MAX_BULK_NODES}
                hint="QBFT tolerates floor((n − 1) / 3) faulty"
              />
              <div className="grid content-start gap-2">
                <Label htmlFor="bulk-externalIp">External IP</Label>
                <Input
                  id="bulk-externalIp"
                  placeholder="Default from settings"
                  aria-invalid={Boolean(errors.externalIp)}
                  {...register("externalIp")}
                />
                <p className="text-xs text-muted-foreground">The address the nodes advertise to peers.</p>
                <FieldError message={errors.externalIp?.message} />
              </div>
            </div>
            <label className="flex items-start gap-2 text-sm">
              <input type="checkbox" className="mt-0.5 size-4 accent-primary" {...register("start")} />
              <span>
                Start the nodes once created
                <span className="block text-xs text-muted-foreground">
                  Leave off to review the nodes first; start them from their pages.
                </span>
              </span>
            </label>
          </FormSection>
          <QbftConsensusSection register={register} errors={errors} idPrefix="bulk" />
          <PrefundedAccountsSection control={control} register={register} errors={errors} idPrefix="bulk-alloc" />
        </fieldset>
        {progress.status !== "idle" && (
          <Card ref={progressRef} data-testid="bulk-progress" data-status={progress.status}>
            <CardHeader>
              <CardTitle className="text-base">Progress</CardTitle>
              <CardDescription>
                {progress.status === "running" && `Creating ${progress.networkName}…`}
                {progress.status === "done" && (
                  <span
                    data-testid="bulk-outcome"
                    data-tone={outcome?.tone ?? "starting"}
                    role={outcome?.tone === "error" ? "alert" : undefined}
                    className={outcome?.tone === "error" ? "text-destructive" : undefined}
                  >
                    {outcome?.text ?? `${progress.networkName} was created.`}
                  </span>
                )}
                {progress.status === "failed" &&
                  "The creation failed. The server rolls back everything this request created: keys, network and nodes."}
              </CardDescription>
            </CardHeader>
            <CardContent className="grid gap-4">
              <ol className="grid gap-2">
                {bulkSteps(progress).map((s) => (
                  <li
                    key={s.key}
                    className="flex items-center gap-2 text-sm"
                    data-testid={`bulk-step-${s.key}`}
                    data-state={s.state}
                  >
                    <StepIcon state={s.state} />
                    <span className={s.state === "pending" ? "text-muted-foreground" : undefined}>{s.label}</span>
                  </li>
                ))}
              </ol>
              {progress.messages.length > 0 && (
                <ul className="grid gap-0.5 rounded-md bg-muted/50 p-3 font-mono text-xs" aria-label="Server messages">
                  {progress.messages.map((m, i) => (
                    <li key={i} className={m.phase === "failed" ? "text-destructive" : undefined}>
                      {m.phase}: {m.message}
                    </li>
                  ))}
                </ul>
              )}
              {progress.status === "failed" && (
                <div role="alert" className="rounded-md border border-destructive/40 p-3 text-sm">
                  <p className="font-medium text-destructive">{progress.error}</p>
                  <p className="mt-1 text-muted-foreground">
                    {progress.rolledBack
                      ? "Everything created by this request was removed again; nothing is left behind."
                      : "The server removes whatever this request created; nothing is left behind."}{" "}
                    Fix the form and try again.
                  </p>
                </div>
              )}
              {result && <Result result={result} nodes={liveNodes} />}
            </CardContent>
          </Card>
        )}
        <Card>
          <CardFooter className="justify-end">
            {progress.status === "done" ? (
              <Button
                type="button"
                variant="outline"
                onClick={() => {
                  reset(BULK_FORM_DEFAULTS);
                  setResult(undefined);
                  dispatch({ type: "reset" });
                }}
              >
                Create another
              </Button>
            ) : (
              <>
                <Button type="button" variant="outline" onClick={() => void navigate("/network/besu")}>
                  Cancel
                </Button>
                <Button type="submit" disabled={create.isPending}>
                  {create.isPending && <Loader2Icon className="animate-spin" />}
                  Create network
                </Button>
              </>
            )}
          </CardFooter>
        </Card>
      </form>
    </div>
  );
}

/** Viewers can't create networks; they see why instead of a form the server would refuse. */
export function BesuBulkCreatePage(): ReactElement {
  return (
    <OperatorsOnly what="create networks">
      <BesuBulkCreateContent />
    </OperatorsOnly>
  );
}
