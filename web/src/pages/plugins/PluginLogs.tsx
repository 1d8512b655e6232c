import { RotateCcwIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { ErrorState, LoadingRows } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { usePluginLogsQuery } from "@/data/plugins/plugin-logs-query";

const TAIL = 200;

/** The last lines of one service's log, refreshed on demand. */
export function PluginLogs({ name, services }: { name: string; services: string[] }): ReactElement {
  const [chosen, setChosen] = useState<string>();
  const service = chosen !== undefined && services.includes(chosen) ? chosen : (services[0] ?? "");
  const logs = usePluginLogsQuery(name, service, TAIL);
  if (services.length === 0) {
    return <p className="p-4 text-sm text-muted-foreground">This plugin has no services.</p>;
  }
  return (
    <Card className="gap-0 py-0" data-testid="plugin-logs">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b px-4 py-2">
        <div className="flex items-center gap-2">
          <Label htmlFor="plugin-log-service">Service</Label>
          <select
            id="plugin-log-service"
            className="h-8 rounded-md border bg-transparent px-2 text-sm"
            value={service}
            onChange={(e) => setChosen(e.target.value)}
          >
            {services.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
          <span className="text-xs text-muted-foreground">last {TAIL} lines</span>
        </div>
        <Button variant="outline" size="sm" disabled={logs.isFetching} onClick={() => void logs.refetch()}>
          <RotateCcwIcon className={logs.isFetching ? "animate-spin" : undefined} /> Refresh
        </Button>
      </div>
      {logs.isPending ? (
        <LoadingRows rows={4} />
      ) : logs.isError ? (
        <ErrorState error={logs.error} what="Log" onRetry={() => void logs.refetch()} />
      ) : (
        <pre className="h-[28rem] overflow-auto bg-muted/30 p-3 font-mono text-xs whitespace-pre-wrap">
          {logs.data.trim() === "" ? <span className="text-muted-foreground">No output yet.</span> : logs.data}
        </pre>
      )}
    </Card>
  );
}
