import { ChevronLeftIcon, ChevronRightIcon, ScrollTextIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Link, useNavigate } from "react-router";
import { AuditFilters } from "@/pages/audit/AuditFilters";
import { auditActor, OutcomeBadge } from "@/pages/audit/OutcomeBadge";
import { SeverityBadge } from "@/pages/audit/SeverityBadge";
import { EmptyState, PageHeader, QueryState } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useAuditLogsQuery } from "@/data/audit/audit-logs-query";
import type { AuditFilters as Filters } from "@/data/audit/keys";
import { useUsersQuery } from "@/data/users/users-query";
import { formatDateTime } from "@/lib/utils";

const PAGE_SIZE = 20;

/** The audit log with filters and paging. */
export function AuditLogsPage(): ReactElement {
  const [filters, setFilters] = useState<Filters>({ page: 1, page_size: PAGE_SIZE });
  const logs = useAuditLogsQuery(filters);
  const users = useUsersQuery();
  const navigate = useNavigate();
  const total = logs.data?.total_count ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));

  return (
    <div>
      <PageHeader title="Audit Logs" description="Who did what, when, and whether it worked." />
      <Card className="gap-0 py-0">
        <AuditFilters value={filters} onChange={setFilters} />
        <div className="border-t">
          <QueryState
            query={logs}
            isEmpty={(d) => d.items.length === 0}
            empty={
              <EmptyState icon={ScrollTextIcon} title="No audit events match" description="Try widening the filters." />
            }
          >
            {(d) => (
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead>Time</TableHead>
                    <TableHead>Event</TableHead>
                    <TableHead>User</TableHead>
                    <TableHead>Outcome</TableHead>
                    <TableHead>Severity</TableHead>
                    <TableHead>Resource</TableHead>
                    <TableHead>Source IP</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {d.items.map((e) => (
                    <TableRow
                      key={e.id}
                      className="cursor-pointer"
                      onClick={() => void navigate(`/settings/audit-logs/${e.id}`)}
                    >
                      <TableCell className="text-muted-foreground">{formatDateTime(e.timestamp)}</TableCell>
                      <TableCell>
                        <Link
                          to={`/settings/audit-logs/${e.id}`}
                          className="font-mono text-xs font-medium hover:underline"
                        >
                          {e.eventType}
                        </Link>
                      </TableCell>
                      <TableCell>{auditActor(e, users.data)}</TableCell>
                      <TableCell>
                        <OutcomeBadge outcome={e.eventOutcome} />
                      </TableCell>
                      <TableCell>
                        <SeverityBadge severity={e.severity} />
                      </TableCell>
                      <TableCell className="max-w-48 truncate text-xs text-muted-foreground">
                        {e.affectedResource ?? "—"}
                      </TableCell>
                      <TableCell className="font-mono text-xs">{e.sourceIp ?? "—"}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </QueryState>
        </div>
        <div className="flex items-center justify-between gap-2 border-t px-4 py-3 text-sm">
          <span className="text-muted-foreground">
            {total} event{total === 1 ? "" : "s"} · page {filters.page} of {pages}
          </span>
          <div className="flex gap-2">
            <Button
              variant="outline"
              size="sm"
              disabled={filters.page <= 1 || logs.isFetching}
              onClick={() => setFilters({ ...filters, page: filters.page - 1 })}
            >
              <ChevronLeftIcon /> Previous
            </Button>
            <Button
              variant="outline"
              size="sm"
              disabled={filters.page >= pages || logs.isFetching}
              onClick={() => setFilters({ ...filters, page: filters.page + 1 })}
            >
              Next <ChevronRightIcon />
            </Button>
          </div>
        </div>
      </Card>
    </div>
  );
}
