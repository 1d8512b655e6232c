import type { ReactElement } from "react";
import type { KeyProvider } from "@/api/client";
import { Link, useParams } from "react-router";
import { DeleteResourceButton } from "@/components/ConfirmDialog";
import { DetailField } from "@/components/DetailField";
import { PageHeader, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useKeyProviderDeleteMutation } from "@/data/key-providers/key-provider-delete-mutation";
import { useKeyProviderQuery } from "@/data/key-providers/key-provider-query";
import { useKeysQuery } from "@/data/keys/keys-query";
import { formatDateTime } from "@/lib/utils";
import { OperatorsOnly } from "@/app/OperatorsOnly";
import { AwsKmsStatusCard } from "@/pages/key-providers/AwsKmsStatusCard";
import { ProviderKeysCard } from "@/pages/key-providers/ProviderKeysCard";
import { ProviderTypeBadge } from "@/pages/key-providers/ProviderTypeBadge";
import { settingsRows } from "@/pages/key-providers/provider-settings";
import { VaultStatusCard } from "@/pages/key-providers/VaultStatusCard";

/**
 * One key provider: type, default flag, its settings (never a secret: the API returns none), the
 * server's status for Vault and AWS KMS, and the keys it holds with a "Create key" preset to it.
 */
function KeyProviderDetailPageContent(): ReactElement {
  const id = Number(useParams().id);
  const provider = useKeyProviderQuery(id);
  const keys = useKeysQuery({ page: 1, pageSize: 1, providerId: id }, Number.isFinite(id));
  const del = useKeyProviderDeleteMutation();

  return (
    <QueryState query={provider}>
      {(p) => (
        <div className="space-y-6">
          <PageHeader
            title={p.name}
            description="Where the private keys of this provider's keys live."
            actions={
              <DeleteResourceButton
                mutation={del}
                id={p.id}
                name={p.name}
                description="A provider can only be deleted once it holds no keys and is not the default."
                confirmLabel="Delete provider"
                deletedTitle="Key provider deleted"
                errorInDialog="The provider could not be deleted."
                redirectTo="/settings/providers"
              />
            }
          />
          <Card>
            <CardContent>
              <dl className="grid grid-cols-2 gap-5 md:grid-cols-4">
                <DetailField label="Type">
                  <ProviderTypeBadge type={p.type} />
                </DetailField>
                <DetailField label="Default">
                  {p.isDefault ? <Badge>Default</Badge> : <span className="text-muted-foreground">No</span>}
                </DetailField>
                <DetailField label="Keys">
                  {keys.isPending ? (
                    <Skeleton className="h-5 w-8" />
                  ) : keys.isError ? (
                    "—"
                  ) : (
                    <Link to="/settings/keys" className="tabular-nums hover:underline">
                      {keys.data.totalItems}
                    </Link>
                  )}
                </DetailField>
                <DetailField label="Created">{formatDateTime(p.createdAt)}</DetailField>
              </dl>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle className="text-base">Settings</CardTitle>
            </CardHeader>
            <CardContent>
              <ProviderSettings provider={p} />
            </CardContent>
          </Card>
          {p.type === "VAULT" ? <VaultStatusCard providerId={p.id} /> : null}
          {p.type === "AWS_KMS" ? <AwsKmsStatusCard providerId={p.id} /> : null}
          <ProviderKeysCard provider={p} />
        </div>
      )}
    </QueryState>
  );
}

/** The provider's non-secret settings, by type. */
function ProviderSettings({ provider }: { provider: KeyProvider }): ReactElement {
  if (provider.type === "DATABASE") {
    return (
      <p className="text-sm text-muted-foreground">
        The database provider needs no settings: keys are encrypted with the installation&apos;s master key.
      </p>
    );
  }
  const rows = settingsRows(provider);
  if (rows.length === 0) return <p className="text-sm text-muted-foreground">No settings.</p>;
  return (
    <dl className="grid grid-cols-2 gap-5 md:grid-cols-4" data-testid="provider-settings">
      {rows.map((r) => (
        <DetailField key={r.label} label={r.label}>
          {r.value}
        </DetailField>
      ))}
      <p className="col-span-2 self-end text-xs text-muted-foreground md:col-span-4">
        Tokens, secret keys and unseal keys are stored encrypted and are never shown.
      </p>
    </dl>
  );
}

/** Admins and managers only. */
export function KeyProviderDetailPage(): ReactElement {
  return (
    <OperatorsOnly>
      <KeyProviderDetailPageContent />
    </OperatorsOnly>
  );
}
