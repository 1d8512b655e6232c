import { Loader2Icon, RefreshCwIcon } from "lucide-react";
import { FormSection } from "@/components/FormSection";
import type { ReactElement } from "react";
import { Controller, type UseFormReturn } from "react-hook-form";
import type { Organization } from "@/api/client";
import { Button } from "@/components/ui/button";
import { Card, CardFooter } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import type { DockerEngine } from "@/data/docker-engines/types";
import { FabricEngineSelect } from "@/pages/nodes/FabricEngineSelect";
import { FABRIC_RUNTIMES, NODE_NAME, validHostPort, type FabricFormValues } from "@/pages/nodes/fabric-form";

const hostPort = (v: string): true | string => validHostPort(v) || "Use host:port, e.g. 0.0.0.0:7051";

/** The fields of a Fabric peer or orderer, shared by the create and edit screens. */
export function FabricNodeForm({
  form,
  mode,
  organizations,
  engines,
  enginesFailed,
  onSubmit,
  onCancel,
  onReloadDefaults,
  reloading,
  submitting,
  submitLabel,
}: {
  form: UseFormReturn<FabricFormValues>;
  mode: "create" | "edit";
  organizations: Organization[];
  /** The Docker engines for the Engine select (runtime docker); undefined while they load. */
  engines?: readonly DockerEngine[] | undefined;
  enginesFailed?: boolean;
  onSubmit: (e?: React.BaseSyntheticEvent) => Promise<void>;
  onCancel: () => void;
  onReloadDefaults?: () => void;
  reloading?: boolean;
  submitting: boolean;
  submitLabel: string;
}): ReactElement {
  const {
    register,
    control,
    watch,
    formState: { errors },
  } = form;
  const kind = watch("kind");
  const runtime = watch("runtime");
  const field = (
    name: "listenAddress" | "chaincodeAddress" | "operationsListenAddress" | "adminAddress" | "externalEndpoint",
    label: string,
    hint: string,
  ): ReactElement => (
    <div className="grid content-start gap-2">
      <Label htmlFor={`fabric-${name}`}>{label}</Label>
      <Input
        id={`fabric-${name}`}
        className="font-mono"
        aria-invalid={Boolean(errors[name])}
        {...register(name, { required: `${label} is required`, validate: hostPort })}
      />
      <p className="text-xs text-muted-foreground">{hint}</p>
      <FieldError message={errors[name]?.message} />
    </div>
  );

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="space-y-6">
      <FormSection title="Node" description="What to run and for which organization.">
        {mode === "create" && (
          <div className="grid gap-2">
            <Label id="fabric-kind-label">Node type</Label>
            <Controller
              control={control}
              name="kind"
              render={({ field: f }) => (
                <div role="radiogroup" aria-labelledby="fabric-kind-label" className="grid gap-2 sm:grid-cols-2">
                  {(["peer", "orderer"] as const).map((k) => (
                    <button
                      key={k}
                      type="button"
                      role="radio"
                      aria-checked={f.value === k}
                      onClick={() => f.onChange(k)}
                      className={`rounded-lg border p-3 text-left text-sm transition-colors ${f.value === k ? "border-primary bg-primary/5" : "hover:bg-muted/50"}`}
                    >
                      <span className="font-medium capitalize">{k}</span>
                      <span className="block text-xs text-muted-foreground">
                        {k === "peer"
                          ? "Endorses transactions and keeps the ledger."
                          : "Orders transactions into blocks (Raft/BFT)."}
                      </span>
                    </button>
                  ))}
                </div>
              )}
            />
          </div>
        )}
        <div className="grid gap-2">
          <Label id="fabric-runtime-label">Runtime</Label>
          <Controller
            control={control}
            name="runtime"
            render={({ field: f }) => (
              <div
                role="radiogroup"
                aria-labelledby="fabric-runtime-label"
                aria-invalid={Boolean(errors.runtime)}
                className="grid gap-2 sm:grid-cols-2"
              >
                {FABRIC_RUNTIMES.map((r) => (
                  <button
                    key={r.value}
                    type="button"
                    role="radio"
                    aria-checked={f.value === r.value}
                    disabled={mode === "edit"}
                    onClick={() => f.onChange(r.value)}
                    className={`rounded-lg border p-3 text-left text-sm transition-colors disabled:cursor-not-allowed disabled:opacity-60 ${f.value === r.value ? "border-primary bg-primary/5" : "hover:bg-muted/50"}`}
                  >
                    <span className="font-medium">{r.label}</span>
                    <span className="block text-xs text-muted-foreground">{r.hint}</span>
                  </button>
                ))}
              </div>
            )}
          />
          {mode === "edit" && (
            <p className="text-xs text-muted-foreground">
              Set when the node is created. To change it, create a new node.
            </p>
          )}
          <FieldError message={errors.runtime?.message} />
        </div>
        {runtime === "docker" && (
          <FabricEngineSelect form={form} mode={mode} engines={engines} enginesFailed={enginesFailed ?? false} />
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="grid content-start gap-2">
            <Label htmlFor="fabric-name">Name</Label>
            <Input
              id="fabric-name"
              placeholder={kind === "peer" ? "peer0-org1" : "orderer0-org1"}
              aria-invalid={Boolean(errors.name)}
              {...register("name", {
                required: "Name is required",
                validate: (v) =>
                  NODE_NAME.test(v.trim()) || "Start with a letter or digit; then letters, digits, spaces, . _ -",
              })}
            />
            <FieldError message={errors.name?.message} />
          </div>
          <div className="grid content-start gap-2">
            <Label htmlFor="fabric-org">Organization</Label>
            <Controller
              control={control}
              name="organizationId"
              rules={{ required: "Choose an organization" }}
              render={({ field: f }) => (
                <Select value={f.value} onValueChange={f.onChange} disabled={mode === "edit"}>
                  <SelectTrigger
                    id="fabric-org"
                    aria-label="Organization"
                    aria-invalid={Boolean(errors.organizationId)}
                  >
                    <SelectValue
                      placeholder={organizations.length ? "Choose an organization" : "No organizations yet"}
                    />
                  </SelectTrigger>
                  <SelectContent>
                    {organizations.map((o) => (
                      <SelectItem key={o.id} value={String(o.id)}>
                        {o.mspId}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            />
            <p className="text-xs text-muted-foreground">Its CAs issue the node's signing and TLS certificates.</p>
            <FieldError message={errors.organizationId?.message} />
          </div>
        </div>
      </FormSection>
      <FormSection
        title="Addresses"
        description="Proposed free ports are filled in; each node needs its own ports on this machine."
      >
        {onReloadDefaults && (
          <div>
            <Button type="button" variant="outline" size="sm" onClick={onReloadDefaults} disabled={reloading}>
              {reloading ? <Loader2Icon className="animate-spin" /> : <RefreshCwIcon />}
              Propose free ports again
            </Button>
          </div>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          {field("listenAddress", "Listen address", "gRPC address the node listens on")}
          {field("externalEndpoint", "External endpoint", "host:port other nodes and clients dial")}
          {field("operationsListenAddress", "Operations address", "/healthz and /metrics")}
          {kind === "peer"
            ? field("chaincodeAddress", "Chaincode address", "Where chaincode connects back to the peer")
            : field("adminAddress", "Admin address", "Channel participation API (osnadmin)")}
        </div>
      </FormSection>
      <FormSection
        title="TLS and version"
        description="Extra names for the TLS certificate, and the Fabric release to run."
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="grid content-start gap-2">
            <Label htmlFor="fabric-domainNames">Domain names</Label>
            <Input
              id="fabric-domainNames"
              placeholder="peer0.org1.example.com, 10.0.0.5"
              aria-invalid={Boolean(errors.domainNames)}
              {...register("domainNames")}
            />
            <p className="text-xs text-muted-foreground">
              Comma-separated. localhost, 127.0.0.1 and the endpoint host are always included.
            </p>
            <FieldError message={errors.domainNames?.message} />
          </div>
          <div className="grid content-start gap-2">
            <Label htmlFor="fabric-version">Version</Label>
            <Input
              id="fabric-version"
              className="font-mono"
              placeholder="Newest installed"
              aria-invalid={Boolean(errors.version)}
              {...register("version", {
                validate: (v) => !v.trim() || /^\d+\.\d+\.\d+$/.test(v.trim()) || "A version like 3.1.0",
              })}
            />
            <p className="text-xs text-muted-foreground">Leave empty for the newest Fabric release installed.</p>
            <FieldError message={errors.version?.message} />
          </div>
        </div>
      </FormSection>
      <Card>
        <CardFooter className="justify-end gap-2">
          <Button type="button" variant="outline" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" disabled={submitting}>
            {submitting && <Loader2Icon className="animate-spin" />}
            {submitLabel}
          </Button>
        </CardFooter>
      </Card>
    </form>
  );
}
