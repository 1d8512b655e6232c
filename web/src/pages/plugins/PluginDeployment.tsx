import { TriangleAlertIcon } from "lucide-react";
import type { ReactElement } from "react";
import { DetailField, Mono } from "@/components/DetailField";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import type { DeploymentStatus } from "@/data/plugins/types";
import { formatDateTime } from "@/lib/utils";
import { PluginStatusBadge } from "@/pages/plugins/PluginStatusBadge";

/** The deployment: status, when it started and stopped, its error first, and the values it runs with. */
export function PluginDeployment({ status }: { status: DeploymentStatus | undefined }): ReactElement {
  const s: Partial<DeploymentStatus> = status ?? { status: "not-deployed" };
  return (
    <div className="space-y-4">
      {s.error ? (
        <div
          role="alert"
          className="flex items-start gap-2 rounded-lg border border-destructive/40 bg-destructive/10 px-4 py-3 text-sm text-destructive"
        >
          <TriangleAlertIcon className="mt-0.5 size-4 shrink-0" />
          <pre className="font-sans break-words whitespace-pre-wrap">{s.error}</pre>
        </div>
      ) : null}
      <Card>
        <CardContent>
          <dl className="grid grid-cols-1 gap-5 sm:grid-cols-2 lg:grid-cols-4">
            <DetailField label="Status">
              <PluginStatusBadge status={s.status} testId="deployment-status" />
            </DetailField>
            <DetailField label="Started">{formatDateTime(s.startedAt)}</DetailField>
            <DetailField label="Stopped">{formatDateTime(s.stoppedAt)}</DetailField>
            <DetailField label="Project">{s.projectName ? <Mono>{s.projectName}</Mono> : "—"}</DetailField>
          </dl>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Parameters</CardTitle>
        </CardHeader>
        <CardContent>
          {s.parameters && Object.keys(s.parameters).length > 0 ? (
            <pre
              data-testid="deployment-parameters"
              className="overflow-auto rounded-lg border bg-muted/40 p-3 font-mono text-xs"
            >
              {JSON.stringify(s.parameters, null, 2)}
            </pre>
          ) : (
            <p className="text-sm text-muted-foreground">Not deployed with any values yet.</p>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
