import { Loader2Icon, PlayIcon, RocketIcon, SquareIcon } from "lucide-react";
import type { ReactElement } from "react";
import { Link } from "react-router";
import { ConfirmButton } from "@/components/ConfirmDialog";
import { Button } from "@/components/ui/button";
import { usePluginResumeMutation } from "@/data/plugins/plugin-resume-mutation";
import { usePluginStopMutation } from "@/data/plugins/plugin-stop-mutation";
import { showToast } from "@/lib/toast";
import { pluginActions } from "@/pages/plugins/plugin-status";

/**
 * Deploy (its form), Stop and Resume for one plugin, as the status allows. `compact` shows icon
 * buttons (the list), labelled "<Action> <name>" for screen readers and tests.
 */
export function PluginActions({
  name,
  status,
  hasParameters,
  compact = false,
}: {
  name: string;
  status: string | undefined;
  hasParameters: boolean;
  compact?: boolean;
}): ReactElement {
  const stop = usePluginStopMutation();
  const resume = usePluginResumeMutation();
  const can = pluginActions(status, hasParameters);
  const busy = stop.isPending || resume.isPending;
  const size = compact ? "icon-sm" : "default";
  return (
    <div className={compact ? "flex justify-end gap-1" : "flex flex-wrap gap-2"} onClick={(e) => e.stopPropagation()}>
      {can.deploy && (
        <Button asChild variant={compact ? "outline" : "default"} size={size}>
          <Link to={`/plugins/${encodeURIComponent(name)}/deploy`} aria-label={compact ? `Deploy ${name}` : undefined}>
            <RocketIcon />
            {!compact && "Deploy"}
          </Link>
        </Button>
      )}
      {can.stop && (
        <ConfirmButton
          size={size}
          disabled={busy}
          aria-label={compact ? `Stop ${name}` : undefined}
          title={`Stop ${name}?`}
          description="Its services stop until it is resumed; what they serve is unavailable meanwhile."
          confirmLabel="Stop"
          onConfirm={() =>
            stop.mutateAsync(name).then(
              () => showToast("success", `${name} stopped`),
              () => undefined,
            )
          }
        >
          {stop.isPending ? <Loader2Icon className="animate-spin" /> : <SquareIcon />}
          {!compact && "Stop"}
        </ConfirmButton>
      )}
      {can.resume && (
        <Button
          variant="outline"
          size={size}
          disabled={busy}
          aria-label={compact ? `Resume ${name}` : undefined}
          onClick={() =>
            resume.mutate(name, {
              onSuccess: (r) => showToast("success", `Resuming ${name}`, { description: r.message }),
            })
          }
        >
          {resume.isPending ? <Loader2Icon className="animate-spin" /> : <PlayIcon />}
          {!compact && "Resume"}
        </Button>
      )}
    </div>
  );
}
