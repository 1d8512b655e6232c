import { BellRingIcon, PlusIcon } from "lucide-react";
import type { ReactElement } from "react";
import { Link } from "react-router";
import { OPERATORS } from "@/app/roles";
import { RoleGate } from "@/app/RoleGate";
import { EmptyState, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useProvidersQuery } from "@/data/notification-providers/providers-query";
import { TestStatusBadge } from "@/pages/monitoring/ProviderTestPanel";
import { flagsSummary } from "@/pages/monitoring/provider-form";

/** The monitoring page's card of notification providers: name, type, routed events, last test. */
export function ProvidersCard(): ReactElement {
  const providers = useProvidersQuery();
  const newButton = (
    <RoleGate allowed={OPERATORS}>
      <Button asChild size="sm">
        <Link to="/monitoring/providers/new">
          <PlusIcon /> New provider
        </Link>
      </Button>
    </RoleGate>
  );
  return (
    <Card data-testid="providers-card">
      <CardHeader className="flex flex-row items-start justify-between gap-4">
        <div>
          <CardTitle className="text-base">Notification providers</CardTitle>
          <CardDescription>Email and webhooks that receive node, backup and alert events.</CardDescription>
        </div>
        {newButton}
      </CardHeader>
      <CardContent>
        <QueryState
          query={providers}
          isEmpty={(list) => list.length === 0}
          empty={
            <EmptyState
              icon={BellRingIcon}
              title="No notification providers"
              description="Add an email or webhook provider to hear about nodes going down and failed backups."
            />
          }
        >
          {(list) => (
            <ul className="divide-y">
              {list.map((p) => (
                <li key={p.id} className="flex flex-wrap items-center gap-3 py-3" data-testid={`provider-${p.id}`}>
                  <div className="min-w-0 flex-1">
                    <Link to={`/monitoring/providers/${p.id}`} className="font-medium hover:underline">
                      {p.name}
                    </Link>
                    <p className="truncate text-xs text-muted-foreground">{flagsSummary(p)}</p>
                  </div>
                  <Badge variant="secondary">{p.type === "SMTP" ? "Email" : "Webhook"}</Badge>
                  {p.isDefault ? <Badge variant="outline">Default</Badge> : null}
                  <TestStatusBadge status={p.lastTestStatus} />
                </li>
              ))}
            </ul>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}
