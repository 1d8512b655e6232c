import { Loader2Icon, Trash2Icon, TriangleAlertIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { DetailField } from "@/components/DetailField";
import { PageHeader, QueryState } from "@/components/states";
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
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useKeyProviderDeleteMutation } from "@/data/key-providers/key-provider-delete-mutation";
import { useKeyProviderQuery } from "@/data/key-providers/key-provider-query";
import { useKeysQuery } from "@/data/keys/keys-query";
import { showToast } from "@/lib/toast";
import { formatDateTime } from "@/lib/utils";
import { OperatorsOnly } from "@/app/OperatorsOnly";
import { ProviderTypeBadge } from "@/pages/key-providers/ProviderTypeBadge";

/** One key provider: type, default flag, how many keys it holds, settings, delete. */
function KeyProviderDetailPageContent(): ReactElement {
  const id = Number(useParams().id);
  const provider = useKeyProviderQuery(id);
  const keys = useKeysQuery({ page: 1, pageSize: 1, providerId: id }, Number.isFinite(id));
  const del = useKeyProviderDeleteMutation();
  const navigate = useNavigate();
  const [confirm, setConfirm] = useState(false);

  return (
    <QueryState query={provider}>
      {(p) => (
        <div className="space-y-6">
          <PageHeader
            title={p.name}
            description="Where the private keys of this provider's keys live."
            actions={
              <Button variant="destructive" onClick={() => setConfirm(true)}>
                <Trash2Icon /> Delete
              </Button>
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
          <AlertDialog
            open={confirm}
            onOpenChange={(v) => {
              if (del.isPending) return;
              if (!v) del.reset();
              setConfirm(v);
            }}
          >
            <AlertDialogContent>
              <AlertDialogHeader>
                <AlertDialogTitle>Delete {p.name}?</AlertDialogTitle>
                <AlertDialogDescription>
                  A provider can only be deleted once it holds no keys and is not the default.
                </AlertDialogDescription>
              </AlertDialogHeader>
              {del.isError && (
                <p
                  role="alert"
                  className="flex items-start gap-2 rounded-lg border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive"
                >
                  <TriangleAlertIcon className="mt-0.5 size-4 shrink-0" />
                  {del.error.message || "The provider could not be deleted."}
                </p>
              )}
              <AlertDialogFooter>
                <AlertDialogCancel disabled={del.isPending}>Cancel</AlertDialogCancel>
                <Button
                  variant="destructive"
                  disabled={del.isPending}
                  onClick={() =>
                    del.mutate(p.id, {
                      onSuccess: () => {
                        showToast("success", "Key provider deleted", { description: `${p.name} was removed.` });
                        void navigate("/settings/providers");
                      },
                    })
                  }
                >
                  {del.isPending && <Loader2Icon className="animate-spin" />}
                  Delete provider
                </Button>
              </AlertDialogFooter>
            </AlertDialogContent>
          </AlertDialog>
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
