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
    <div className="overflow-x-auto">
      <Table aria-label="Connection test results">
        <TableHeader>
          <TableRow>
            <TableHead className="w-8" />
            <TableHead>Node</TableHead>
            <TableHead>Target</TableHead>
            <TableHead>Protocol</TableHead>
            <TableHead>Result</TableHead>
            <TableHead>Time (ms)</TableHead>
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
                  <TableCell className="font-medium">{row.node}</TableCell>
                  <TableCell>
                    <div>{row.target}</div>
                    <div className="text-xs break-all text-muted-foreground">{row.request.endpoint}</div>
                  </TableCell>
                  <TableCell>{row.request.protocol}</TableCell>
                  <TableCell>
                    <Outcome row={row} />
                  </TableCell>
                  <TableCell>{r ? r.response_time_ms : "—"}</TableCell>
                  <TableCell>{r?.status_code ?? "—"}</TableCell>
                  <TableCell>
                    <TlsCell result={r} />
                  </TableCell>
                  <TableCell className="max-w-64 text-xs">{r?.details?.health ?? "—"}</TableCell>
                  <TableCell className="max-w-64 text-xs text-destructive">{row.error ?? r?.error ?? ""}</TableCell>
                  <TableCell>
                    <CopyCommandMenu request={row.request} label={`Copy command for ${label}`} />
                  </TableCell>
                </TableRow>
                {expanded && r && (
                  <TableRow>
                    <TableCell />
                    <TableCell colSpan={10} className="bg-muted/40">
                      <TestDetails result={r} />
                    </TableCell>
                  </TableRow>
                )}
              </Fragment>
            );
          })}
        </TableBody>
      </Table>
    </div>
  );
}
