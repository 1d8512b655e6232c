import { BellOffIcon } from "lucide-react";
import type { ReactElement } from "react";
import { Link } from "react-router";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState, LoadingRows, QueryState } from "@/components/states";
import { activeAlerts } from "@/data/alerts/alert-display";
import { useAlertsQuery } from "@/data/alerts/alerts-query";
import { formatDateTime } from "@/lib/utils";

const VARIANT = { error: "destructive", warning: "warning", success: "success", info: "secondary" } as const;

/** What the alert rules find now: pending and firing alerts, each linking where it can be fixed. */
export function ActiveAlerts(): ReactElement {
  const alerts = useAlertsQuery();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Active alerts</CardTitle>
        <CardDescription>Node, certificate, peer lag and Raft alerts the console is raising now.</CardDescription>
      </CardHeader>
      <CardContent>
        <QueryState
          query={alerts}
          loading={<LoadingRows rows={2} />}
          isEmpty={(a) => activeAlerts(a).length === 0}
          empty={<EmptyState icon={BellOffIcon} title="No active alerts" />}
        >
          {(a) => (
            <ul aria-label="Active alerts" className="divide-y">
              {activeAlerts(a).map((x) => (
                <li key={x.key} className="flex flex-wrap items-start justify-between gap-2 py-3">
                  <div className="grid gap-1">
                    <div className="flex items-center gap-2">
                      <Badge variant={VARIANT[x.kind]}>{x.title}</Badge>
                      <span className="text-xs text-muted-foreground">
                        {x.state}
                        {x.since ? ` since ${formatDateTime(x.since)}` : ""}
                      </span>
                    </div>
                    <p className="text-sm">{x.message}</p>
                  </div>
                  {x.link && (
                    <Link to={x.link} className="text-sm font-medium text-primary hover:underline">
                      Open
                    </Link>
                  )}
                </li>
              ))}
            </ul>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}
