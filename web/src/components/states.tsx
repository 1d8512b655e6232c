import type { UseQueryResult } from "@tanstack/react-query";
import {
  AlertCircleIcon,
  ArrowLeftIcon,
  InboxIcon,
  LockIcon,
  RotateCcwIcon,
  SearchXIcon,
  type LucideIcon,
} from "lucide-react";
import { Fragment, type ReactElement, type ReactNode } from "react";
import { Link } from "react-router";
import { describeError } from "@/components/error-view";
import { DASHBOARD_BACK, useRouteInfo } from "@/components/route-info";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";

/** Screen heading with an optional description and actions on the right. */
/**
 * A title that may wrap after `.`, `_`, `/` and `-` (event types, slugs, paths), so a narrow screen
 * breaks `governance.proposal_created` between its words instead of before its last letter.
 */
export function breakable(title: string): ReactNode {
  const parts = title.split(/(?<=[._/-])/);
  if (parts.length < 2) return title;
  return parts.map((p, i) => (
    <Fragment key={i}>
      {p}
      {i < parts.length - 1 && <wbr />}
    </Fragment>
  ));
}

export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}): ReactElement {
  return (
    <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
      <div className="min-w-0">
        <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">{breakable(title)}</h1>
        {description && <p className="mt-1 text-sm text-muted-foreground">{description}</p>}
      </div>
      {actions && <div className="flex shrink-0 flex-wrap items-center gap-2">{actions}</div>}
    </div>
  );
}

export function PageSkeleton(): ReactElement {
  return (
    <div className="space-y-6" aria-busy="true" aria-label="Loading">
      <div className="space-y-2">
        <Skeleton className="h-7 w-48" />
        <Skeleton className="h-4 w-80 max-w-full" />
      </div>
      <Skeleton className="h-64 w-full" />
    </div>
  );
}

export function LoadingRows({ rows = 5 }: { rows?: number }): ReactElement {
  return (
    <div className="space-y-2 p-4" aria-busy="true" aria-label="Loading">
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className="h-9 w-full" />
      ))}
    </div>
  );
}

/**
 * A failed query's state, by what went wrong (see describeError): "<Kind> not found" or "You don't have
 * access" with a link back, or the generic error with the server's message and a retry. `what` names
 * the thing shown; it defaults to the screen's title.
 */
export function ErrorState({
  error,
  onRetry,
  what,
}: {
  error: unknown;
  onRetry?: () => void;
  what?: string;
}): ReactElement {
  const info = useRouteInfo();
  const view = describeError(error, what ?? info?.title);
  if (view.kind !== "error") {
    const back = info?.back ?? DASHBOARD_BACK;
    const Icon = view.kind === "not-found" ? SearchXIcon : LockIcon;
    return (
      <div role="alert" data-state={view.kind} className="flex flex-col items-center gap-3 px-4 py-10 text-center">
        <span className="flex size-12 items-center justify-center rounded-full bg-muted">
          <Icon className="size-6 text-muted-foreground" />
        </span>
        <div>
          <h2 className="text-lg font-semibold">{view.title}</h2>
          <p className="mt-1 max-w-md text-sm text-muted-foreground">{view.description}</p>
        </div>
        <Button asChild variant="outline" size="sm">
          <Link to={back.href}>
            <ArrowLeftIcon /> Back to {back.label}
          </Link>
        </Button>
      </div>
    );
  }
  return (
    <div role="alert" data-state="error" className="flex flex-col items-center gap-3 px-4 py-10 text-center">
      <AlertCircleIcon className="size-8 text-destructive" />
      <div>
        <p className="font-medium">{view.title}</p>
        <p className="mt-1 text-sm text-muted-foreground">{view.description}</p>
      </div>
      {onRetry && (
        <Button variant="outline" size="sm" onClick={onRetry}>
          <RotateCcwIcon /> Try again
        </Button>
      )}
    </div>
  );
}

export function EmptyState({
  icon: Icon = InboxIcon,
  title,
  description,
  action,
}: {
  icon?: LucideIcon;
  title: string;
  description?: string;
  action?: ReactNode;
}): ReactElement {
  return (
    <div className="flex flex-col items-center gap-3 px-4 py-12 text-center">
      <span className="flex size-12 items-center justify-center rounded-full bg-muted">
        <Icon className="size-6 text-muted-foreground" />
      </span>
      <div>
        <p className="font-medium">{title}</p>
        {description && <p className="mt-1 max-w-sm text-sm text-muted-foreground">{description}</p>}
      </div>
      {action}
    </div>
  );
}

/**
 * The shared list/detail scaffold: loading rows, error with retry, empty state, or the content.
 * Every screen renders its three states through this.
 */
export function QueryState<T>({
  query,
  isEmpty,
  empty,
  loading,
  children,
}: {
  query: UseQueryResult<T>;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  loading?: ReactNode;
  children: (data: T) => ReactNode;
}): ReactElement {
  if (query.isPending) return <>{loading ?? <LoadingRows />}</>;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  if (isEmpty?.(query.data)) return <>{empty ?? <EmptyState title="Nothing here yet" />}</>;
  return <>{children(query.data)}</>;
}

/** Shown instead of a screen the user's role may not open (the server would answer 403). */
export function NoAccessState({ what }: { what: string }): ReactElement {
  return (
    <EmptyState
      icon={AlertCircleIcon}
      title="You don't have access to this page"
      description={`Only admins and managers can ${what}. Ask an admin if you need access.`}
    />
  );
}
