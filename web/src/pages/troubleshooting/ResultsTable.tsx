import { ChevronDownIcon, ChevronRightIcon, Loader2Icon } from "lucide-react";
import { Fragment, useState, type ReactElement } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { ConnectionTestRequest, ConnectionTestResult } from "@/data/troubleshooting/troubleshooting-api";
import { CopyCommandMenu } from "@/pages/troubleshooting/CopyCommandMenu";

/** One line of the results table: a preset or a manual test, running or finished. */
export interface TestRow {
  id: string;
  /** Node name; "Manual" for a test typed in the form. */
  node: string;
  target: string;
  request: ConnectionTestRequest;
  state: "running" | "done" | "failed";
  result?: ConnectionTestResult;
  /** Why the call itself failed (rate limit, sign-in, bad input). */
  error?: string;
}

function Outcome({ row }: { row: TestRow }): ReactElement {
  if (row.state === "running")
    return (
      <Badge variant="secondary">
        <Loader2Icon className="animate-spin" />
        Running
      </Badge>
    );
  if (row.result?.success) return <Badge variant="success">Success</Badge>;
  return <Badge variant="destructive">Failed</Badge>;
}

function TlsCell({ result }: { result?: ConnectionTestResult }): ReactElement {
  const tls = result?.tls_info;
  if (!tls) return <span className="text-muted-foreground">—</span>;
  if (tls.certificate_valid) return <Badge variant="success">TLS valid</Badge>;
  return (
    <span className="flex flex-col gap-1">
      <Badge variant="destructive">TLS invalid</Badge>
      <span className="text-xs text-destructive">{tls.verify_error}</span>
    </span>
  );
}

/** The TLS and protocol details of one finished test (the expanded row). */
export function TestDetails({ result }: { result: ConnectionTestResult }): ReactElement {
  const tls = result.tls_info;
  const details = Object.entries(result.details ?? {});
  return (
    <dl className="grid gap-x-6 gap-y-1 text-xs sm:grid-cols-[max-content_1fr]">
      {tls && (
        <>
          <dt className="font-medium">TLS version</dt>
          <dd>{tls.version}</dd>
          <dt className="font-medium">Cipher</dt>
          <dd>{tls.cipher_suite}</dd>
          <dt className="font-medium">Server name</dt>
          <dd>{tls.server_name}</dd>
          <dt className="font-medium">Subject</dt>
          <dd className="break-all">{tls.subject}</dd>
          <dt className="font-medium">Issuer</dt>
          <dd className="break-all">{tls.issuer}</dd>
          <dt className="font-medium">Expires</dt>
          <dd>{tls.cert_expiry}</dd>
          <dt className="font-medium">Verified against</dt>
          <dd className="break-all">{tls.verified_against}</dd>
          {tls.verify_error && (
            <>
              <dt className="font-medium">Verify error</dt>
              <dd className="text-destructive">{tls.verify_error}</dd>
            </>
          )}
          <dt className="font-medium">Chain</dt>
          <dd>
            <ol className="list-decimal pl-4">
              {tls.chain.map((c, i) => (
                <li key={i} className="break-all">
                  {c}
                </li>
              ))}
            </ol>
          </dd>
        </>
      )}
      {details.map(([k, v]) => (
        <Fragment key={k}>
          <dt className="font-medium">{k}</dt>
          <dd className="break-all">{v}</dd>
        </Fragment>
      ))}
      {!tls && details.length === 0 && <dd className="text-muted-foreground">No further details.</dd>}
    </dl>
  );
}

/** The health answer up to its explanation ("not offered (UNIMPLEMENTED): the server…" → "not offered (UNIMPLEMENTED)"); the details hold it all. */
export function shortHealth(health: string): string {
  const i = health.indexOf(":");
  return i > 0 ? health.slice(0, i) : health;
}

/** Results of the connection tests: one row per test, expandable for TLS and protocol details. */
export function ResultsTable({ rows }: { rows: readonly TestRow[] }): ReactElement {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string): void =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <Table aria-label="Connection test results">
      <TableHeader>
        <TableRow>
          <TableHead className="w-8" />
          <TableHead>Node</TableHead>
          <TableHead>Target</TableHead>
          <TableHead>Result, time</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>TLS</TableHead>
          <TableHead>Health</TableHead>
          <TableHead>Error</TableHead>
          <TableHead />
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => {
          const r = row.result;
          const expanded = open.has(row.id);
          const label = `${row.node} ${row.target}`;
          return (
            <Fragment key={row.id}>
              <TableRow aria-label={label}>
                <TableCell>
                  {r && (
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon-sm"
                      aria-expanded={expanded}
                      aria-label={`${expanded ? "Hide" : "Show"} details of ${label}`}
                      onClick={() => toggle(row.id)}
                    >
                      {expanded ? <ChevronDownIcon /> : <ChevronRightIcon />}
                    </Button>
                  )}
                </TableCell>
                <TableCell className="min-w-28 font-medium whitespace-normal [overflow-wrap:anywhere]">
                  {row.node}
                </TableCell>
                <TableCell className="min-w-32 whitespace-normal [overflow-wrap:anywhere]">
                  <div>
                    {row.target} <span className="text-xs text-muted-foreground">({row.request.protocol})</span>
                  </div>
                  <div className="text-xs text-muted-foreground">{row.request.endpoint}</div>
                </TableCell>
                <TableCell>
                  <Outcome row={row} />
                  {r && <div className="mt-1 text-xs text-muted-foreground">{r.response_time_ms} ms</div>}
                </TableCell>
                <TableCell>{r?.status_code ?? "—"}</TableCell>
                <TableCell>
                  <TlsCell result={r} />
                </TableCell>
                <TableCell className="min-w-28 text-xs whitespace-normal" title={r?.details?.health}>
                  {r?.details?.health ? shortHealth(r.details.health) : "—"}
                </TableCell>
                <TableCell className="min-w-32 text-xs whitespace-normal text-destructive [overflow-wrap:anywhere]">
                  {row.error ?? r?.error ?? ""}
                </TableCell>
                <TableCell>
                  <CopyCommandMenu request={row.request} label={`Copy command for ${label}`} compact />
                </TableCell>
              </TableRow>
              {expanded && r && (
                <TableRow>
                  <TableCell />
                  <TableCell colSpan={8} className="bg-muted/40 whitespace-normal">
                    <TestDetails result={r} />
                  </TableCell>
                </TableRow>
              )}
            </Fragment>
          );
        })}
      </TableBody>
    </Table>
  );
}
