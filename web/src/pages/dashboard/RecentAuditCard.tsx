import type { UseQueryResult } from "@tanstack/react-query";
import { ScrollTextIcon } from "lucide-react";
import type { ReactElement } from "react";
import { Link } from "react-router";
import { auditActor, OutcomeBadge } from "@/pages/audit/OutcomeBadge";
import { EmptyState, QueryState } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import type { AuditPage } from "@/data/audit/audit-logs-query";
import { useUsersQuery } from "@/data/users/users-query";
import { formatRelative } from "@/lib/utils";

export function RecentAuditCard({ query }: { query: UseQueryResult<AuditPage> }): ReactElement {
  const users = useUsersQuery();
  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between">
        <CardTitle className="text-base">Recent activity</CardTitle>
        <Button asChild variant="ghost" size="sm">
          <Link to="/settings/audit-logs">View all</Link>
        </Button>
      </CardHeader>
      <CardContent className="px-0">
        <QueryState
          query={query}
          isEmpty={(d) => d.items.length === 0}
          empty={<EmptyState icon={ScrollTextIcon} title="No audit events yet" />}
        >
          {(d) => (
            <ul className="divide-y">
              {d.items.map((e) => (
                <li key={e.id}>
                  <Link
                    to={`/views/audit-logs/${e.id}`}
                    className="flex items-center justify-between gap-3 px-5 py-2.5 hover:bg-muted/50"
                  >
                    <span className="min-w-0">
                      <span className="block truncate font-mono text-sm">{e.eventType}</span>
                      <span className="block truncate text-xs text-muted-foreground">
                        {auditActor(e, users.data)} · {formatRelative(e.timestamp)}
                      </span>
                    </span>
                    <OutcomeBadge outcome={e.eventOutcome} />
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}
