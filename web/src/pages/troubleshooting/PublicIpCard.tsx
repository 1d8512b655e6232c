import type { ReactElement } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { LoadingRows } from "@/components/states";
import { usePublicIpQuery } from "@/data/troubleshooting/troubleshooting-queries";
import { describeToolError } from "@/data/troubleshooting/troubleshooting-api";

const LABELS: Record<string, string> = {
  ip: "IP address",
  source: "Source",
  note: "Notes",
  lookup_url: "Lookup service",
  interface: "Interface",
  interfaces: "Interfaces",
};

/** The address other parties should use to reach this console, and where it came from. */
export function PublicIpCard(): ReactElement {
  const q = usePublicIpQuery();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Public IP</CardTitle>
        <CardDescription>The address other parties should use to reach this console.</CardDescription>
      </CardHeader>
      <CardContent>
        {q.isPending && <LoadingRows rows={2} />}
        {q.isError && (
          <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-destructive">
            {describeToolError(q.error)}
            <Button type="button" variant="outline" size="sm" onClick={() => void q.refetch()}>
              Retry
            </Button>
          </div>
        )}
        {q.data && (
          <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
            {Object.entries(q.data).map(([k, v]) => (
              <div key={k} className="contents">
                <dt className="font-medium">{LABELS[k] ?? k}</dt>
                <dd className={k === "ip" ? "font-mono font-semibold break-all" : "break-all"}>{v || "—"}</dd>
              </div>
            ))}
          </dl>
        )}
      </CardContent>
    </Card>
  );
}
