import { AlertTriangleIcon, RotateCcwIcon } from "lucide-react";
import { Component, Suspense, type ErrorInfo, type ReactElement, type ReactNode } from "react";
import { useLocation, useParams } from "react-router";
import { ApiError } from "@/api/errors";
import { breadcrumbsFor } from "@/app/breadcrumbs";
import { lazyPage } from "@/app/lazy-page";
import type { AppRoute } from "@/app/routes";
import { DASHBOARD_BACK, RouteInfoContext, type BackLink } from "@/components/route-info";
import { ErrorState, PageSkeleton } from "@/components/states";
import { PendingPage } from "@/pages/system/PendingPage";
import { Button } from "@/components/ui/button";

interface BoundaryState {
  error: Error | null;
}

/** Catches a route chunk that failed or timed out and offers a retry (a fresh page load). */
export class ChunkErrorBoundary extends Component<{ children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { error: null };

  static getDerivedStateFromError(error: Error): BoundaryState {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error("route failed to render", error, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div role="alert" className="mx-auto mt-16 flex max-w-md flex-col items-center gap-3 text-center">
        <AlertTriangleIcon className="size-10 text-destructive" />
        <h1 className="text-lg font-semibold">This page could not be loaded</h1>
        <p className="text-sm text-muted-foreground">{error.message || "An unknown error occurred"}</p>
        <Button onClick={() => window.location.reload()}>
          <RotateCcwIcon /> Retry
        </Button>
      </div>
    );
  }
}

const cache = new Map<string, ReturnType<typeof lazyPage>>();

/** Path parameters that are numeric ids on every screen that has them. */
const ID_PARAMS = new Set(["id", "networkId", "nodeId"]);

/**
 * The parameter of a path that can't name anything (not a positive integer id), if any. With `textId`
 * the route's `:id` is not a database id and is left to the screen.
 */
export function invalidIdParam(
  params: Readonly<Record<string, string | undefined>>,
  textId = false,
): string | undefined {
  return Object.entries(params).find(
    ([k, v]) => ID_PARAMS.has(k) && !(textId && k === "id") && v !== undefined && !/^[1-9]\d*$/.test(v),
  )?.[1];
}

/** Where a screen's "Back to …" goes: the nearest parent screen in the breadcrumbs, else its list. */
export function backLinkFor(pathname: string): BackLink {
  const crumbs = breadcrumbsFor(pathname);
  const parent = crumbs.length > 1 ? crumbs[crumbs.length - 2] : undefined;
  if (parent) return { label: parent.label, href: parent.href };
  if (pathname.startsWith("/organizations/")) return { label: "Organizations", href: "/fabric/organizations" };
  return DASHBOARD_BACK;
}

/**
 * Renders a route's screen (code-split) or, while the screen is pending, the placeholder. The screen
 * gets its title and back link (RouteInfoContext) for the shared states; an id in the path that is
 * not a number shows the not-found state without asking the server.
 */
export function RouteScreen({ route }: { route: AppRoute }): ReactElement {
  const { pathname } = useLocation();
  const params = useParams();
  if (!route.load) return <PendingPage title={route.title} />;
  let Page = cache.get(route.path);
  if (!Page) {
    Page = lazyPage(route.load);
    cache.set(route.path, Page);
  }
  const bad = invalidIdParam(params, route.textId);
  const info = { title: route.title, back: backLinkFor(pathname) };
  return (
    <RouteInfoContext value={info}>
      <ChunkErrorBoundary>
        {bad !== undefined ? (
          <ErrorState error={new ApiError(404, "NOT_FOUND", `"${bad}" is not an id`)} />
        ) : (
          <Suspense fallback={<PageSkeleton />}>
            <Page />
          </Suspense>
        )}
      </ChunkErrorBoundary>
    </RouteInfoContext>
  );
}
