import type { ComponentProps, ReactElement } from "react";
import { OVERFLOW_FADE, useOverflowEdges } from "@/components/ui/overflow-edges";
import { cn } from "@/lib/utils";

export function Table({ className, ...props }: ComponentProps<"table">): ReactElement {
  const ref = useOverflowEdges<HTMLDivElement>();
  return (
    <div ref={ref} className={cn("relative w-full overflow-x-auto", OVERFLOW_FADE)}>
      <table className={cn("w-full caption-bottom text-sm", className)} {...props} />
    </div>
  );
}

export function TableHeader({ className, ...props }: ComponentProps<"thead">): ReactElement {
  return <thead className={cn("[&_tr]:border-b", className)} {...props} />;
}

export function TableBody({ className, ...props }: ComponentProps<"tbody">): ReactElement {
  return <tbody className={cn("[&_tr:last-child]:border-0", className)} {...props} />;
}

export function TableRow({ className, ...props }: ComponentProps<"tr">): ReactElement {
  return <tr className={cn("border-b transition-colors hover:bg-muted/50", className)} {...props} />;
}

export function TableHead({ className, ...props }: ComponentProps<"th">): ReactElement {
  return (
    <th
      className={cn(
        "h-10 px-3 text-left align-middle text-xs font-medium whitespace-nowrap text-muted-foreground uppercase tracking-wide",
        className,
      )}
      {...props}
    />
  );
}

export function TableCell({ className, ...props }: ComponentProps<"td">): ReactElement {
  return <td className={cn("px-3 py-2.5 align-middle whitespace-nowrap", className)} {...props} />;
}
