import { AlertTriangleIcon, RotateCcwIcon } from "lucide-react";
import { Component, Suspense, type ErrorInfo, type ReactElement, type ReactNode } from "react";
import { lazyPage } from "@/app/lazy-page";
import type { AppRoute } from "@/app/routes";
import { PendingPage } from "@/pages/system/PendingPage";
import { PageSkeleton } from "@/components/states";
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

/** Renders a route's screen (code-split) or, while the screen is pending, the placeholder. */
export function RouteScreen({ route }: { route: AppRoute }): ReactElement {
  if (!route.load) return <PendingPage title={route.title} />;
  let Page = cache.get(route.path);
  if (!Page) {
    Page = lazyPage(route.load);
    cache.set(route.path, Page);
  }
  return (
    <ChunkErrorBoundary>
      <Suspense fallback={<PageSkeleton />}>
        <Page />
      </Suspense>
    </ChunkErrorBoundary>
  );
}
