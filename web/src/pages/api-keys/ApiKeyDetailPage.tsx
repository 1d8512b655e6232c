import { HistoryIcon } from "lucide-react";
import type { ReactElement, ReactNode } from "react";
import { useParams } from "react-router";
import { RoleGate } from "@/app/RoleGate";
import { KeyStatusBadge } from "@/pages/api-keys/KeyStatusBadge";
import { DeleteResourceButton } from "@/components/ConfirmDialog";
import { EmptyState, PageHeader, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useApiKeyLogsQuery, useApiKeyQuery } from "@/data/api-keys/api-key-query";
import { useApiKeyRevokeMutation } from "@/data/api-keys/api-key-revoke-mutation";
import { formatDateTime } from "@/lib/utils";

function Field({ label, children }: { label: string; children: ReactNode }): ReactElement {
  return (
    <div>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="mt-0.5 text-sm font-medium">{children}</dd>
    </div>
  );
}

function statusOf(metadata: string | null): string {
  if (!metadata) return "";
  try {
    const m = JSON.parse(metadata) as { status?: number };
    return m.status !== undefined ? String(m.status) : "";
  } catch {
    return "";
  }
}

/** One API key: details, usage log, revoke. */
export function ApiKeyDetailPage(): ReactElement {
  const id = Number(useParams().id);
  const key = useApiKeyQuery(id);
  const logs = useApiKeyLogsQuery(id);
  const revoke = useApiKeyRevokeMutation();

  return (
    <div className="space-y-6">
      <QueryState query={key}>
        {(k) => (
          <>
            <PageHeader
              title={k.name}
              description={k.description || "No description"}
              actions={
                k.is_active && (
                  <RoleGate denied={["viewer"]}>
                    <DeleteResourceButton
                      mutation={revoke}
                      id={k.id}
                      name={k.name}
                      buttonLabel="Revoke"
                      title={`Revoke ${k.name}?`}
                      description="Anything using this key loses access immediately. This cannot be undone."
                      confirmLabel="Revoke key"
                      deletedTitle="API key revoked"
                      deletedDescription={`${k.name} no longer works.`}
                      redirectTo="/settings/api-keys"
                    />
                  </RoleGate>
                )
              }
            />
            <Card>
              <CardContent>
                <dl className="grid grid-cols-2 gap-5 md:grid-cols-4">
                  <Field label="Status">
                    <KeyStatusBadge apiKey={k} />
                  </Field>
                  <Field label="Key prefix">
                    <span className="font-mono">{k.key_prefix}…</span>
                  </Field>
                  <Field label="Role">
                    <Badge variant="outline" className="capitalize">
                      {k.role}
                    </Badge>
                  </Field>
                  <Field label="Permissions">{k.permissions.length}</Field>
                  <Field label="Created">{formatDateTime(k.created_at)}</Field>
                  <Field label="Last used">{k.last_used_at ? formatDateTime(k.last_used_at) : "Never"}</Field>
                  <Field label="Expires">{k.expires_at ? formatDateTime(k.expires_at) : "Never"}</Field>
                  <Field label="Updated">{formatDateTime(k.updated_at)}</Field>
                </dl>
              </CardContent>
            </Card>
          </>
        )}
      </QueryState>
      <Card className="pb-0">
        <CardHeader>
          <CardTitle className="text-base">Usage log</CardTitle>
        </CardHeader>
        <QueryState
          query={logs}
          isEmpty={(d) => d.length === 0}
          empty={
            <EmptyState icon={HistoryIcon} title="Not used yet" description="Calls made with this key appear here." />
          }
        >
          {(list) => (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Time</TableHead>
                  <TableHead>Action</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead>IP address</TableHead>
                  <TableHead>User agent</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {list.map((l) => (
                  <TableRow key={l.id}>
                    <TableCell className="text-muted-foreground">{formatDateTime(l.created_at)}</TableCell>
                    <TableCell className="font-mono text-xs">{l.action}</TableCell>
                    <TableCell>{statusOf(l.metadata)}</TableCell>
                    <TableCell className="font-mono text-xs">{l.ip_address ?? "—"}</TableCell>
                    <TableCell className="max-w-xs truncate text-xs text-muted-foreground">
                      {l.user_agent ?? "—"}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </QueryState>
      </Card>
    </div>
  );
}
