import { PauseIcon, PlayIcon, RotateCcwIcon, SearchIcon, Trash2Icon } from "lucide-react";
import { useEffect, useRef, useState, type ReactElement } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { bytes } from "@/components/charts/series-data";
import { Card } from "@/components/ui/card";
import { useNodeLogStatsQuery } from "@/data/nodes/node-logs";
import { cn } from "@/lib/utils";
import { lineLevel, visibleLines } from "@/pages/nodes/log-buffer";
import { LogSearch } from "@/pages/nodes/LogSearch";
import { useLogStream } from "@/pages/nodes/useLogStream";

const LEVEL_CLASS = {
  error: "text-red-600 dark:text-red-400",
  warn: "text-amber-700 dark:text-amber-400",
  debug: "text-muted-foreground",
  info: "",
} as const;

/**
 * A node's log, live: the last lines then everything new, auto-scrolled unless paused. The header says what
 * the whole file holds (`logs/stats`), and Search looks through all of it on the server.
 */
export function LogViewer({ nodeId, height = "h-[28rem]" }: { nodeId: number; height?: string }): ReactElement {
  const [paused, setPaused] = useState(false);
  const [searching, setSearching] = useState(false);
  const stats = useNodeLogStatsQuery(nodeId);
  const { buffer, state, error, reconnect, clear } = useLogStream(nodeId, { paused });
  const box = useRef<HTMLPreElement>(null);
  const lines = visibleLines(buffer);

  useEffect(() => {
    if (!paused && box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [lines.length, paused]);

  return (
    <Card className="gap-0 py-0" data-testid="node-logs">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b px-4 py-2">
        <div className="flex items-center gap-2 text-sm">
          {state === "streaming" && !paused && (
            <Badge variant="success">
              <span className="size-1.5 animate-pulse rounded-full bg-current" /> Live
            </Badge>
          )}
          {state === "streaming" && paused && <Badge variant="warning">Paused</Badge>}
          {state === "connecting" && <Badge variant="secondary">Connecting…</Badge>}
          {state === "ended" && <Badge variant="secondary">Stream ended</Badge>}
          {state === "error" && <Badge variant="destructive">Disconnected</Badge>}
          <span className="text-xs text-muted-foreground">
            {lines.length} line{lines.length === 1 ? "" : "s"}
            {buffer.dropped > 0 && ` (${buffer.dropped} older dropped)`}
          </span>
          {stats.data && (
            <span className="text-xs text-muted-foreground" data-testid="log-stats">
              · file: {stats.data.total_lines.toLocaleString()} lines, {bytes(stats.data.size_bytes)}
              {(stats.data.level_counts.ERROR ?? 0) > 0 && `, ${stats.data.level_counts.ERROR} errors`}
              {(stats.data.level_counts.WARN ?? 0) > 0 && `, ${stats.data.level_counts.WARN} warnings`}
            </span>
          )}
        </div>
        <div className="flex gap-2">
          <Button variant="outline" size="sm" onClick={() => setSearching((v) => !v)} aria-pressed={searching}>
            <SearchIcon /> Search
          </Button>
          <Button variant="outline" size="sm" onClick={() => setPaused((p) => !p)}>
            {paused ? <PlayIcon /> : <PauseIcon />}
            {paused ? "Resume" : "Pause"}
          </Button>
          <Button variant="outline" size="sm" onClick={clear}>
            <Trash2Icon /> Clear
          </Button>
          {(state === "ended" || state === "error") && (
            <Button variant="outline" size="sm" onClick={reconnect}>
              <RotateCcwIcon /> Reconnect
            </Button>
          )}
        </div>
      </div>
      {searching && <LogSearch nodeId={nodeId} onClose={() => setSearching(false)} />}
      {error && <p className="border-b px-4 py-2 text-sm text-destructive">{error}</p>}
      <pre
        ref={box}
        role="log"
        aria-live="off"
        aria-label="Node log"
        className={cn("overflow-auto bg-muted/30 p-3 font-mono text-xs leading-relaxed", height)}
      >
        {lines.length === 0 ? (
          <span className="text-muted-foreground">
            {state === "connecting" ? "Connecting to the log…" : "No log lines yet."}
          </span>
        ) : (
          lines.map((l, i) => (
            <div key={buffer.dropped + i} className={cn("break-all whitespace-pre-wrap", LEVEL_CLASS[lineLevel(l)])}>
              {l}
            </div>
          ))
        )}
      </pre>
    </Card>
  );
}
