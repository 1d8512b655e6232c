import { ShieldCheckIcon } from "lucide-react";
import { useMemo, useState, type ReactElement } from "react";
import { Link } from "react-router";
import { Pager } from "@/components/Pager";
import { EmptyState, ErrorState, LoadingRows } from "@/components/states";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useCertificateInventoryQuery } from "@/data/certificates/certificate-inventory-query";
import { classifyExpiry, expiryLabel, type ExpiryStatus } from "@/lib/certificates/expiry";
import { assignLanes, timelinePercent, type InventoryEntry } from "@/lib/certificates/inventory";
import { cn } from "@/lib/utils";

const ROWS_PER_PAGE = 10;
const LANES = 4;

const DOT: Record<ExpiryStatus, string> = {
  expired: "bg-red-500",
  expiring: "bg-amber-500",
  "not-yet-valid": "bg-gray-400",
  valid: "bg-green-500",
};
const TEXT: Record<ExpiryStatus, string> = {
  expired: "text-red-600 dark:text-red-400",
  expiring: "text-amber-600 dark:text-amber-400",
  "not-yet-valid": "text-muted-foreground",
  valid: "",
};

const day = (d: Date): string => d.toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });
const monthYear = (d: Date): string => d.toLocaleDateString(undefined, { year: "numeric", month: "short" });

/** Markers from now (left) to the furthest expiry (right), stacked in lanes where they crowd. */
function Timeline({ entries, now }: { entries: InventoryEntry[]; now: Date }): ReactElement {
  const end = new Date(Math.max(now.getTime() + 86_400_000, ...entries.map((e) => e.notAfter.getTime())));
  const percents = entries.map((e) => timelinePercent(e.notAfter, now, end));
  const lanes = assignLanes(percents, 1.5, LANES);
  const ticks = [0, 25, 50, 75, 100];
  return (
    <figure aria-label="Certificate expiry timeline" className="space-y-1">
      {/* The inner box is inset so markers at 0 % and 100 % stay whole inside the border. */}
      <div className="h-16 rounded-md border bg-muted/30 px-2">
        <div className="relative h-full">
          {ticks.map((t) => (
            <span key={t} className="absolute inset-y-0 w-px bg-border" style={{ left: `${t}%` }} aria-hidden />
          ))}
          {entries.map((e, i) => {
            const x = classifyExpiry(e.notAfter, e.notBefore, now);
            return (
              <span
                key={e.id}
                role="img"
                aria-label={`${e.what}, ${e.owner.label}: ${expiryLabel(x)}`}
                title={`${e.what} · ${e.owner.label} · ${day(e.notAfter)}`}
                data-testid="timeline-marker"
                className={cn("absolute size-2.5 -translate-x-1/2 rounded-full ring-2 ring-background", DOT[x.status])}
                style={{ left: `${percents[i] ?? 0}%`, top: `${8 + (lanes[i] ?? 0) * 12}px` }}
              />
            );
          })}
        </div>
      </div>
      <div className="relative mx-2 h-4 text-xs text-muted-foreground" aria-hidden>
        {ticks.map((t) => {
          const at = new Date(now.getTime() + ((end.getTime() - now.getTime()) * t) / 100);
          return (
            <span
              key={t}
              className={cn(
                "absolute whitespace-nowrap",
                t === 0 ? "left-0" : t === 100 ? "right-0" : "-translate-x-1/2",
                (t === 25 || t === 75) && "hidden sm:inline",
              )}
              style={t === 0 || t === 100 ? undefined : { left: `${t}%` }}
            >
              {t === 0 ? "Now" : monthYear(at)}
            </span>
          );
        })}
      </div>
    </figure>
  );
}

/** Every certificate the console holds, on a timeline to its expiry and in a table, soonest first. */
export function CertificatesCard(): ReactElement {
  const q = useCertificateInventoryQuery();
  const [page, setPage] = useState(1);
  const now = useMemo(() => new Date(q.dataUpdatedAt || Date.now()), [q.dataUpdatedAt]);
  const entries = q.data?.entries ?? [];
  const rows = entries.slice((page - 1) * ROWS_PER_PAGE, page * ROWS_PER_PAGE);
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Certificate expiry timeline</CardTitle>
        <CardDescription>
          Node, CA and identity certificates, decoded in your browser; amber within 30 days of expiry, red once expired.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {q.isPending ? (
          <LoadingRows rows={4} />
        ) : q.isError ? (
          <ErrorState error={q.error} onRetry={() => void q.refetch()} what="Certificates" />
        ) : entries.length === 0 ? (
          <EmptyState
            icon={ShieldCheckIcon}
            title="No certificates"
            description="Organizations, Fabric nodes and keys with certificates show here."
          />
        ) : (
          <>
            <Timeline entries={entries} now={now} />
            {(q.data.truncated || q.data.undecodable > 0) && (
              <p className="text-xs text-muted-foreground">
                {q.data.truncated && "Only the first 1000 nodes, organizations and keys are read. "}
                {q.data.undecodable > 0 &&
                  `${q.data.undecodable} certificate${q.data.undecodable === 1 ? "" : "s"} could not be decoded.`}
              </p>
            )}
            <Table aria-label="Certificates by expiry">
              <TableHeader>
                <TableRow>
                  <TableHead>Certificate</TableHead>
                  <TableHead className="hidden sm:table-cell">Owner</TableHead>
                  <TableHead className="hidden sm:table-cell">Expires</TableHead>
                  <TableHead className="text-right">Days left</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.map((e) => {
                  const x = classifyExpiry(e.notAfter, e.notBefore, now);
                  return (
                    <TableRow key={e.id}>
                      <TableCell className="whitespace-normal [overflow-wrap:anywhere]">
                        <div className="font-medium">{e.what}</div>
                        <div className="hidden truncate text-xs text-muted-foreground sm:block">{e.subject}</div>
                        {/* On a phone the owner and date go under the name instead of their own columns. */}
                        <div className="text-xs text-muted-foreground sm:hidden">
                          <Link to={e.owner.href} className="hover:underline">
                            {e.owner.label}
                          </Link>{" "}
                          · {day(e.notAfter)}
                        </div>
                      </TableCell>
                      <TableCell className="hidden sm:table-cell">
                        <Link to={e.owner.href} className="hover:underline">
                          {e.owner.label}
                        </Link>
                      </TableCell>
                      <TableCell className="hidden whitespace-nowrap sm:table-cell">{day(e.notAfter)}</TableCell>
                      <TableCell className={cn("text-right tabular-nums", TEXT[x.status])} title={expiryLabel(x)}>
                        <span className={cn("mr-1.5 inline-block size-2 rounded-full", DOT[x.status])} aria-hidden />
                        {x.daysLeft}
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </>
        )}
      </CardContent>
      {entries.length > ROWS_PER_PAGE && (
        <Pager
          total={entries.length}
          page={page}
          pageSize={ROWS_PER_PAGE}
          noun={["certificate", "certificates"]}
          onPage={setPage}
        />
      )}
    </Card>
  );
}
