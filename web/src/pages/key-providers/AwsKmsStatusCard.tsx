import { RefreshCwIcon } from "lucide-react";
import type { ReactElement } from "react";
import { DetailField, Mono } from "@/components/DetailField";
import { ErrorState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useAwsKmsStatusQuery, type AwsKmsStatus } from "@/data/key-providers/awskms-status-query";
import { yesNo } from "@/pages/key-providers/vault-status";

/** Whether KMS answers with the stored credentials, and the account it answers for. */
export function AwsKmsStatusView({ status }: { status: AwsKmsStatus }): ReactElement {
  const ok = status.kms_reachable;
  return (
    <div className="grid gap-4">
      <dl className="grid grid-cols-2 gap-5 md:grid-cols-4" data-testid="awskms-status">
        <DetailField label="State">
          <Badge variant={ok ? "success" : "destructive"}>
            {ok ? "Available" : status.kms_status || "Unavailable"}
          </Badge>
        </DetailField>
        <DetailField label="Region">{status.region || "—"}</DetailField>
        <DetailField label="Account">{status.account_id || "—"}</DetailField>
        <DetailField label="Keys">{status.key_count}</DetailField>
        <DetailField label="Endpoint" className="col-span-2">
          <Mono>{status.endpoint || "AWS default"}</Mono>
        </DetailField>
        <DetailField label="Access key ID">
          <Mono>{status.access_key_id || "—"}</Mono>
        </DetailField>
        <DetailField label="Static credentials">{yesNo(status.has_credentials)}</DetailField>
      </dl>
      {status.connection_error ? <p className="text-sm text-destructive">{status.connection_error}</p> : null}
    </div>
  );
}

/** AWS KMS reachability, with a button to ask again. */
export function AwsKmsStatusCard({ providerId }: { providerId: number }): ReactElement {
  const status = useAwsKmsStatusQuery(providerId);
  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between gap-3">
        <CardTitle className="text-base">AWS KMS status</CardTitle>
        <Button size="sm" variant="outline" disabled={status.isFetching} onClick={() => void status.refetch()}>
          <RefreshCwIcon className={status.isFetching ? "animate-spin" : undefined} /> Check again
        </Button>
      </CardHeader>
      <CardContent>
        {status.data ? (
          <AwsKmsStatusView status={status.data} />
        ) : status.isError ? (
          <ErrorState error={status.error} onRetry={() => void status.refetch()} />
        ) : (
          <Skeleton className="h-20 w-full" />
        )}
      </CardContent>
    </Card>
  );
}
