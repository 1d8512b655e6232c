import { Loader2Icon, LockOpenIcon, PlayIcon, RefreshCwIcon, SquareIcon } from "lucide-react";
import type { ReactElement } from "react";
import { RoleGate } from "@/app/RoleGate";
import { OPERATORS } from "@/app/roles";
import { DetailField, Mono } from "@/components/DetailField";
import { ErrorState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { ConfirmButton } from "@/components/ConfirmDialog";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { showMutationError } from "@/data/error-toast";
import {
  useVaultStartMutation,
  useVaultStopMutation,
  useVaultUnsealMutation,
  type VaultOperationResult,
} from "@/data/key-providers/vault-operation-mutations";
import { useVaultStatusQuery, type VaultStatus } from "@/data/key-providers/vault-status-query";
import { showToast } from "@/lib/toast";
import { formatDateTime } from "@/lib/utils";
import { vaultActions, vaultStateBadge, yesNo } from "@/pages/key-providers/vault-status";

/** The status fields; the managed process's only when the console runs the server. */
export function VaultStatusView({ status }: { status: VaultStatus }): ReactElement {
  const state = vaultStateBadge(status);
  const managed = status.mode === "managed";
  return (
    <div className="grid gap-5">
      <dl className="grid grid-cols-2 gap-5 md:grid-cols-4" data-testid="vault-status">
        <DetailField label="State">
          <Badge variant={state.tone}>{state.label}</Badge>
        </DetailField>
        <DetailField label="Reachable">{yesNo(status.vault_reachable)}</DetailField>
        <DetailField label="Initialized">{yesNo(status.vault_initialized)}</DetailField>
        <DetailField label="Sealed">{yesNo(status.sealed)}</DetailField>
        <DetailField label="Version">{status.vault_version || "—"}</DetailField>
        <DetailField label="Address" className="col-span-2 md:col-span-3">
          <Mono>{status.address || "—"}</Mono>
        </DetailField>
      </dl>
      {status.error ? <p className="text-sm text-destructive">{status.error}</p> : null}
      {managed ? (
        <dl className="grid grid-cols-2 gap-5 border-t pt-5 md:grid-cols-4" data-testid="vault-process">
          <DetailField label="Process">{status.container_status || "—"}</DetailField>
          <DetailField label="PID">
            <Mono>{status.container_id || "—"}</Mono>
          </DetailField>
          <DetailField label="Started at">
            {status.container_started_at ? formatDateTime(status.container_started_at) : "—"}
          </DetailField>
          <DetailField label="Restarts">{status.container_restart_count}</DetailField>
          <DetailField label="Unseal keys kept">{yesNo(status.has_unseal_keys)}</DetailField>
          <DetailField label="Data directory" className="col-span-2 md:col-span-3">
            <Mono>{status.data_directory || "—"}</Mono>
          </DetailField>
          {status.container_error ? (
            <DetailField label="Last error" className="col-span-2 md:col-span-4">
              <span className="text-destructive">{status.container_error}</span>
            </DetailField>
          ) : null}
        </dl>
      ) : null}
    </div>
  );
}

function toastResult(what: "started" | "stopped" | "unsealed", r: VaultOperationResult): void {
  if (r.success) showToast("success", `Vault ${what}`, { description: r.message });
  else showToast("error", `Vault not ${what}`, { description: r.error ?? r.message });
}

/** Start / Stop (and Unseal when sealed while running) of a managed server, disabled per state; admins and managers only. */
function VaultActions({ id, status }: { id: number; status: VaultStatus | undefined }): ReactElement | null {
  const start = useVaultStartMutation(id);
  const stop = useVaultStopMutation(id);
  const unseal = useVaultUnsealMutation(id);
  const { managed, canStart, canStop, canUnseal } = vaultActions(status);
  if (!managed) return null;
  const busy = start.isPending || stop.isPending || unseal.isPending;
  return (
    <RoleGate allowed={OPERATORS}>
      <div className="flex gap-2">
        {canUnseal ? (
          <Button
            size="sm"
            disabled={busy}
            onClick={() =>
              unseal.mutate(undefined, { onSuccess: (r) => toastResult("unsealed", r), onError: showMutationError })
            }
          >
            {unseal.isPending ? <Loader2Icon className="animate-spin" /> : <LockOpenIcon />} Unseal
          </Button>
        ) : null}
        <Button
          size="sm"
          disabled={!canStart || busy}
          onClick={() =>
            start.mutate(undefined, { onSuccess: (r) => toastResult("started", r), onError: showMutationError })
          }
        >
          {start.isPending ? <Loader2Icon className="animate-spin" /> : <PlayIcon />} Start
        </Button>
        <ConfirmButton
          size="sm"
          disabled={!canStop || busy}
          title="Stop the Vault server?"
          description="Keys held in this Vault can't sign until it is started again and unsealed: nodes whose keys live there can't start meanwhile."
          confirmLabel="Stop"
          onConfirm={() =>
            stop.mutateAsync(undefined).then(
              (r) => toastResult("stopped", r),
              () => undefined,
            )
          }
        >
          {stop.isPending ? <Loader2Icon className="animate-spin" /> : <SquareIcon />} Stop
        </ConfirmButton>
      </div>
    </RoleGate>
  );
}

/** The Vault server's state, asked again every few seconds, with Start/Stop for a managed server. */
export function VaultStatusCard({ providerId }: { providerId: number }): ReactElement {
  const status = useVaultStatusQuery(providerId);
  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between gap-3">
        <CardTitle className="flex items-center gap-2 text-base">
          Vault status
          {status.isFetching ? <RefreshCwIcon className="size-3.5 animate-spin text-muted-foreground" /> : null}
        </CardTitle>
        <VaultActions id={providerId} status={status.data} />
      </CardHeader>
      <CardContent>
        {status.data ? (
          <VaultStatusView status={status.data} />
        ) : status.isError ? (
          <ErrorState error={status.error} onRetry={() => void status.refetch()} />
        ) : (
          <Skeleton className="h-24 w-full" />
        )}
      </CardContent>
    </Card>
  );
}
