import type { ReactElement, ReactNode } from "react";
import { cn } from "@/lib/utils";

/** One labelled value of a detail screen's description list. */
export function DetailField({
  label,
  children,
  className,
}: {
  label: string;
  children: ReactNode;
  className?: string;
}): ReactElement {
  return (
    <div className={cn("min-w-0", className)}>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="mt-0.5 text-sm font-medium break-words">{children}</dd>
    </div>
  );
}

/** Monospace value that wraps anywhere (hashes, addresses, identifiers). */
export function Mono({ children, className }: { children: ReactNode; className?: string }): ReactElement {
  return <span className={cn("font-mono text-xs break-all", className)}>{children}</span>;
}
