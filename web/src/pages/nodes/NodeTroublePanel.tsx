import { AlertTriangleIcon, RotateCcwIcon } from "lucide-react";
import { useEffect, useRef, type ReactElement } from "react";
import type { NodeInfo } from "@/api/client";
import { useNodeLogTailQuery } from "@/data/nodes/node-logs";
import { cn } from "@/lib/utils";
import { nodeTrouble, type NodeTrouble } from "@/pages/nodes/node-trouble";

/** Lines of the log shown with a failure: enough for a Go panic's cause and the lines before it. */
const TAIL_LINES = 30;

function LogTail({ nodeId, live }: { nodeId: number; live: boolean }): ReactElement {
  const tail = useNodeLogTailQuery(nodeId, TAIL_LINES, live ? 2000 : false);
  const lines = tail.data ?? [];
  const box = useRef<HTMLPreElement>(null);
  const last = lines.at(-1)?.line_number;
  // The newest lines are the ones that explain a crash: keep them in view as the tail moves.
  useEffect(() => {
    if (box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [last]);
  return (
    <div className="mt-3">
      <p className="mb-1 text-xs font-medium text-foreground">Last {TAIL_LINES} log lines</p>
      <pre
        ref={box}
        role="log"
        aria-label="Last log lines"
        data-testid="node-trouble-log"
        className="max-h-72 overflow-auto rounded-md border bg-background p-2 font-mono text-xs whitespace-pre-wrap text-foreground"
      >
        {tail.isPending
          ? "Loading…"
          : tail.isError
            ? `The log could not be read: ${tail.error.message}`
            : lines.length === 0
              ? "The log is empty."
              : lines.map((l) => (
                  <div key={l.line_number} data-line={l.line_number}>
                    {l.content}
                  </div>
                ))}
      </pre>
    </div>
  );
}

function Panel({ node, trouble }: { node: NodeInfo; trouble: NodeTrouble }): ReactElement {
  const failed = trouble.kind === "failed";
  return (
    <div
      role={failed ? "alert" : "status"}
      data-testid={failed ? "node-error" : "node-restarting"}
      className={cn(
        "rounded-lg border px-4 py-3 text-sm",
        failed
          ? "border-destructive/40 bg-destructive/10 text-destructive"
          : "border-amber-500/40 bg-amber-500/10 text-amber-800 dark:text-amber-300",
      )}
    >
      <p className="flex items-center gap-2 font-medium">
        {failed ? <AlertTriangleIcon className="size-4" /> : <RotateCcwIcon className="size-4 animate-spin" />}
        {failed ? "The node failed and is not restarted" : "The node crashed and is restarting"}
      </p>
      <p data-testid="node-trouble-reason" className="mt-2 font-mono text-xs break-words whitespace-pre-wrap">
        {trouble.headline}
      </p>
      {trouble.details.map((d) => (
        <p key={d} className="font-mono text-xs break-words whitespace-pre-wrap">
          {d}
        </p>
      ))}
      <LogTail nodeId={node.id} live={!failed} />
    </div>
  );
}

/**
 * Why a node is down or restarting, with the last lines of its log: the node's status and
 * errorMessage follow the server's events (the node query is invalidated on each), and so does the tail.
 */
export function NodeTroublePanel({ node }: { node: NodeInfo }): ReactElement | null {
  const trouble = nodeTrouble(node.status, node.errorMessage);
  return trouble ? <Panel node={node} trouble={trouble} /> : null;
}
