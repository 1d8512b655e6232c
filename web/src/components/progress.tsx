import { CheckCircle2Icon, CircleDashedIcon, Loader2Icon, RotateCcwIcon, XCircleIcon } from "lucide-react";
import type { ReactElement } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";

/** A failed step of a progress table: the server's message and a Retry for that step alone. */
export function FailedRetry({
  name,
  message,
  disabled,
  onRetry,
  badge = true,
}: {
  /** What is retried; the button is labelled "Retry <name>". */
  name: string;
  message: string | undefined;
  disabled: boolean;
  onRetry: () => void;
  /** Show the "Failed" badge before the message. */
  badge?: boolean;
}): ReactElement {
  return (
    <div className="flex flex-wrap items-center gap-2">
      {badge && <Badge variant="destructive">Failed</Badge>}
      <span className="text-sm text-destructive">{message}</span>
      <Button size="sm" variant="outline" disabled={disabled} onClick={onRetry} aria-label={`Retry ${name}`}>
        <RotateCcwIcon /> Retry
      </Button>
    </div>
  );
}

/** Where one step of a progress table stands. */
export type StepState = "pending" | "running" | "done" | "failed";

const STEP_ICON: Record<StepState, ReactElement> = {
  pending: <CircleDashedIcon className="size-4 text-muted-foreground" />,
  running: <Loader2Icon className="size-4 animate-spin text-primary" />,
  done: <CheckCircle2Icon className="size-4 text-success" />,
  failed: <XCircleIcon className="size-4 text-destructive" />,
};

/** The state icon in the first column of a progress table. */
export function StepIcon({ state }: { state: StepState }): ReactElement {
  return STEP_ICON[state];
}
