import type { ReactElement } from "react";
import { statusDotClass } from "@/app/palette/palette-items";
import { cn } from "@/lib/utils";
import { pluginStatusLabel } from "@/pages/plugins/plugin-status";

/**
 * A plugin's deployment status as a dot (spec colours: running green, stopped grey, error red,
 * anything else yellow) and its name; pulses while the status is changing.
 */
export function PluginStatusBadge({
  status,
  className,
  testId = "plugin-status",
}: {
  status: string | undefined;
  className?: string;
  testId?: string;
}): ReactElement {
  const s = status ?? "not-deployed";
  const dot = statusDotClass(s);
  const moving = s === "deploying" || s === "stopping";
  return (
    <span
      data-testid={testId}
      data-status={s}
      className={cn(
        "inline-flex w-fit items-center gap-1.5 rounded-md border px-2 py-0.5 text-xs font-medium whitespace-nowrap",
        className,
      )}
    >
      <span className={cn("size-2 shrink-0 rounded-full", dot, moving && "animate-pulse")} aria-hidden />
      {pluginStatusLabel(s)}
    </span>
  );
}
