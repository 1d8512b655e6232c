import type { ReactElement } from "react";
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
import { ProviderTypeBadge } from "@/pages/key-providers/ProviderTypeBadge";

/** One key provider: type, default flag, how many keys it holds, settings, delete. */
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
              {Object.keys(p.config).length === 0 ? (
                <p className="text-sm text-muted-foreground">
                  {p.type === "DATABASE"
                    ? "The database provider needs no settings: keys are encrypted with the installation's master key."
                    : "No settings."}
                </p>
              ) : (
                <pre className="overflow-auto rounded-lg border bg-muted/40 p-3 font-mono text-xs">
                  {JSON.stringify(p.config, null, 2)}
                </pre>
              )}
            </CardContent>
          </Card>
        </div>
      )}
    </QueryState>
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
