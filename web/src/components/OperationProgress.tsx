import { useEffect, useState, type ReactElement } from "react";
import { StepIcon, type StepState } from "@/components/progress";
import { useOperationsQuery, type Operation, type OperationFilter } from "@/data/operations/operations";
import { cn } from "@/lib/utils";

/** How the phases the server names read on screen. */
const PHASE_LABEL: Record<string, string> = {
  run: "Start server",
  start: "Start server",
  starting: "Start",
};

export function phaseLabel(phase: string): string {
  return PHASE_LABEL[phase] ?? phase.charAt(0).toUpperCase() + phase.slice(1);
}

/** `m:ss` (or `h:mm:ss`) of a duration in ms. */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

/** Where each phase stands: done before the current one, the current one running (or its outcome). */
export function phaseStates(op: Pick<Operation, "phases" | "phase" | "status">): StepState[] {
  const at = op.phase ? op.phases.indexOf(op.phase) : -1;
  return op.phases.map((_, i) => {
    if (i < at) return "done";
    if (i > at) return "pending";
    return op.status === "running" ? "running" : op.status === "failed" ? "failed" : "done";
  });
}

/** The browser's clock, moved every second while `on` (the elapsed times tick). */
function useNow(on: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!on) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [on]);
  return now;
}

/**
 * One operation as a stepper: its phases in order, the current one highlighted with its own elapsed
 * time, step and percent, and the whole operation's elapsed time counted from its real start on the
 * server (so a reload does not reset it).
 */
export function OperationStepper({
  operation: op,
  skewMs = 0,
  className,
}: {
  operation: Operation;
  /** Server clock minus browser clock. */
  skewMs?: number;
  className?: string;
}): ReactElement {
  const running = op.status === "running";
  const now = useNow(running) + skewMs;
  const total = (op.finishedAt ? Date.parse(op.finishedAt) : now) - Date.parse(op.startedAt);
  const states = phaseStates(op);
  return (
    <div
      className={cn("grid gap-1 text-sm", className)}
      data-testid="operation-progress"
      data-status={op.status}
      data-phase={op.phase ?? ""}
      data-kind={op.kind}
    >
      <div className="flex flex-wrap items-baseline gap-x-2">
        <span className="font-medium">{op.label}</span>
        <span className="text-muted-foreground tabular-nums" data-testid="operation-elapsed">
          {running
            ? `running ${formatElapsed(total)}`
            : op.status === "succeeded"
              ? `done in ${formatElapsed(total)}`
              : `failed after ${formatElapsed(total)}`}
        </span>
      </div>
      <ol className="flex flex-wrap gap-x-4 gap-y-1" aria-label={`${op.label}: phases`}>
        {op.phases.map((p, i) => {
          const state = states[i] ?? "pending";
          const current = p === op.phase && running;
          const took = op.durations[p];
          return (
            <li
              key={p}
              data-phase={p}
              data-state={state}
              aria-current={current ? "step" : undefined}
              className={cn(
                "flex items-center gap-1.5",
                state === "pending" && "text-muted-foreground",
                current && "rounded-md bg-primary/10 px-1.5 font-semibold text-primary",
                state === "failed" && "text-destructive",
              )}
            >
              <StepIcon state={state} />
              <span>{phaseLabel(p)}</span>
              {current && (
                <span className="font-normal tabular-nums" data-testid="phase-elapsed">
                  {formatElapsed(now - Date.parse(op.phaseStartedAt ?? op.startedAt))}
                  {op.detail ? ` · ${op.detail}` : ""}
                  {op.percent !== null ? ` · ${op.percent}%` : ""}
                </span>
              )}
              {!current && took !== undefined && state === "done" && (
                <span className="text-xs text-muted-foreground tabular-nums">{formatElapsed(took)}</span>
              )}
            </li>
          );
        })}
      </ol>
      {op.status === "failed" && op.error && (
        <p role="alert" className="text-xs break-words text-destructive">
          {op.error}
        </p>
      )}
    </div>
  );
}

/**
 * The newest operation of a resource (or kind) as a stepper, live from the server's events and
 * read back after a reload; nothing when there is none (or, with `runningOnly`, none running).
 */
export function OperationProgress({
  runningOnly = false,
  className,
  ...filter
}: OperationFilter & { runningOnly?: boolean; className?: string }): ReactElement | null {
  const q = useOperationsQuery(filter);
  const op = q.data?.operations[0];
  if (!op || (runningOnly && op.status !== "running")) return null;
  return <OperationStepper operation={op} skewMs={q.data?.skewMs ?? 0} className={className} />;
}
