import type { UseQueryResult } from "@tanstack/react-query";
import type { LucideIcon } from "lucide-react";
import type { ReactElement } from "react";
import { Link } from "react-router";
import { Card, CardContent } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";

export function StatCard<T>({
  label,
  icon: Icon,
  query,
  value,
  href,
}: {
  label: string;
  icon: LucideIcon;
  query: UseQueryResult<T>;
  value: (data: T) => number;
  href?: string;
}): ReactElement {
  const body = (
    <Card className="h-full py-4 transition-colors hover:border-primary/40">
      <CardContent className="flex items-center justify-between gap-3 px-4">
        <div>
          <p className="text-xs text-muted-foreground sm:text-sm">{label}</p>
          {query.isPending ? (
            <Skeleton className="mt-1 h-8 w-12" />
          ) : query.isError ? (
            <p className="mt-1 text-sm text-destructive">Unavailable</p>
          ) : (
            <p className="mt-1 text-3xl font-semibold tabular-nums">{value(query.data)}</p>
          )}
        </div>
        <span className="hidden size-10 shrink-0 items-center justify-center rounded-lg bg-muted sm:flex">
          <Icon className="size-5 text-muted-foreground" />
        </span>
      </CardContent>
    </Card>
  );
  return href ? (
    <Link to={href} aria-label={label}>
      {body}
    </Link>
  ) : (
    body
  );
}
