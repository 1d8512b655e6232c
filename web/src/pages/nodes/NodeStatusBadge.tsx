import type { ReactElement } from "react";
import { nodeStatusDot, statusLabel } from "@/data/nodes/node-status";
import { cn } from "@/lib/utils";

/** A node's status as a dot (spec colours) and its name; pulses while the node is changing state. */
export function NodeStatusBadge({ status, className }: { status: string; className?: string }): ReactElement {
  const dot = nodeStatusDot(status);
  const moving = dot === "bg-yellow-500";
  return (
    <span
      data-testid="node-status"
      data-status={status}
      className={cn(
        "inline-flex w-fit items-center gap-1.5 rounded-md border px-2 py-0.5 text-xs font-medium whitespace-nowrap",
        className,
      )}
    >
      <span className={cn("size-2 shrink-0 rounded-full", dot, moving && "animate-pulse")} aria-hidden />
      {statusLabel(status)}
    </span>
  );
}
