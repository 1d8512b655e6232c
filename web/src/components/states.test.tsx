import { QueryClient, QueryClientProvider, type UseQueryResult } from "@tanstack/react-query";
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "@/api/errors";
import { RouteInfoContext, type RouteInfo } from "@/components/route-info";
import { ErrorState, QueryState } from "@/components/states";

const NODE: RouteInfo = { title: "Node", back: { label: "Nodes", href: "/nodes" } };

/** Renders inside a router and, unless `info` is null, a screen's route info. */
function render(el: ReactElement, info: RouteInfo | null = NODE): string {
  return renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <RouteInfoContext value={info ?? undefined}>{el}</RouteInfoContext>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** Text content, without tags, entities decoded enough for these strings. */
function text(html: string): string {
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, " ")
    .trim();
}

function failed(error: unknown): UseQueryResult<unknown> {
  return { isPending: false, isError: true, error, refetch: vi.fn() } as unknown as UseQueryResult<unknown>;
}

describe("ErrorState", () => {
  it("shows a 404 as '<screen> not found' with a link back to the list, no retry", () => {
    const html = render(
      <ErrorState error={new ApiError(404, "NOT_FOUND", "node 999999 not found")} onRetry={vi.fn()} />,
    );
    expect(html).toContain('data-state="not-found"');
    expect(text(html)).toContain("Node not found");
    expect(html).toContain('href="/nodes"');
    expect(text(html)).toContain("Back to Nodes");
    expect(text(html)).not.toContain("Something went wrong");
    expect(text(html)).not.toContain("Try again");
  });

  it("shows a 403 as a permission state naming the role needed", () => {
    const body = { details: { requiredRoles: ["admin", "viewer"], role: "manager", demo: false } };
    const html = render(<ErrorState error={new ApiError(403, "FORBIDDEN", "nope", body)} onRetry={vi.fn()} />, {
      title: "Users",
      back: { label: "Dashboard", href: "/dashboard" },
    });
    expect(html).toContain('data-state="forbidden"');
    expect(text(html)).toContain("You don't have access to this");
    expect(text(html)).toContain("This needs the admin or viewer role; your role is manager.");
    expect(html).toContain('href="/dashboard"');
    expect(text(html)).not.toContain("Try again");
  });

  it("keeps the generic error with the server's message and a retry for other failures", () => {
    const html = render(
      <ErrorState error={new ApiError(502, "UPSTREAM_ERROR", "peer0 unreachable")} onRetry={vi.fn()} />,
    );
    expect(html).toContain('data-state="error"');
    expect(text(html)).toContain("Something went wrong");
    expect(text(html)).toContain("peer0 unreachable");
    expect(text(html)).toContain("Try again");
  });

  it("links back to the dashboard outside a screen", () => {
    const html = render(<ErrorState error={new ApiError(404, "NOT_FOUND", "key 4 not found")} />, null);
    expect(text(html)).toContain("Key not found");
    expect(html).toContain('href="/dashboard"');
  });
});

describe("QueryState", () => {
  it("renders a failed query through the branching error state", () => {
    const html = render(
      <QueryState query={failed(new ApiError(404, "NOT_FOUND", "organization 9 not found"))}>
        {() => "content"}
      </QueryState>,
    );
    expect(text(html)).toContain("Organization not found");
    expect(text(html)).not.toContain("content");
  });
});
