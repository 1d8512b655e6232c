import type { ReactElement, ReactNode } from "react";
import { useParams } from "react-router";
import { AuditResource } from "@/pages/audit/AuditResource";
import { auditActor, OutcomeBadge } from "@/pages/audit/OutcomeBadge";
import { SeverityBadge } from "@/pages/audit/SeverityBadge";
import { CopyButton } from "@/components/CopyButton";
import { PageHeader, QueryState } from "@/components/states";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { useAuditLogQuery } from "@/data/audit/audit-log-query";
import { useUsersQuery } from "@/data/users/users-query";
import { formatDateTime } from "@/lib/utils";

function Field({ label, children }: { label: string; children: ReactNode }): ReactElement {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="mt-0.5 truncate text-sm font-medium">{children}</dd>
    </div>
  );
}

/** One audit event (served at settings/audit-logs/{id} and views/audit-logs/{id}). */
export function AuditLogDetailPage(): ReactElement {
  const id = Number(useParams().id);
  const event = useAuditLogQuery(id);
  const users = useUsersQuery();
  return (
    <QueryState query={event}>
      {(e) => {
        const json = JSON.stringify(e.details, null, 2);
        return (
          <div className="space-y-6">
            <PageHeader title={e.eventType} description={`Event #${e.id} · ${formatDateTime(e.timestamp)}`} />
            <Card>
              <CardContent>
                <dl className="grid grid-cols-2 gap-5 md:grid-cols-4">
                  <Field label="Outcome">
                    <OutcomeBadge outcome={e.eventOutcome} />
                  </Field>
                  <Field label="Severity">
                    <SeverityBadge severity={e.severity} />
                  </Field>
                  <Field label="User">{auditActor(e, users.data)}</Field>
                  <Field label="Source">{e.eventSource}</Field>
                  <Field label="Source IP">{e.sourceIp ?? "—"}</Field>
                  <Field label="Resource">
                    <AuditResource resource={e.affectedResource} />
                  </Field>
                  <Field label="Request ID">
                    <span className="font-mono text-xs">{e.requestId ?? "—"}</span>
                  </Field>
                  <Field label="Session">
                    <span className="font-mono text-xs">{e.sessionId ?? "—"}</span>
                  </Field>
                </dl>
              </CardContent>
            </Card>
            <Card>
              <CardHeader className="flex-row items-center justify-between">
                <CardTitle className="text-base">Details</CardTitle>
                <CopyButton value={json} />
              </CardHeader>
              <CardContent>
                <pre className="overflow-x-auto rounded-lg bg-muted p-4 font-mono text-xs leading-relaxed">{json}</pre>
              </CardContent>
            </Card>
          </div>
        );
      }}
    </QueryState>
  );
}
