import { QueryClient, QueryClientProvider, type QueryKey } from "@tanstack/react-query";
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter, Route, Routes } from "react-router";
import type { Role } from "@/api/client";
import { ApiError } from "@/api/errors";
import { authKeys } from "@/data/auth/keys";

/** Puts data in the cache before a render (nothing is fetched during a static render). */
export type Seed = (qc: QueryClient) => void;

/** Signs in a user of `role`. */
export const asRole =
  (role: Role): Seed =>
  (qc) =>
    qc.setQueryData(authKeys.me(), { id: 1, username: role, role });

/** Seeds `data` under `queryKey`. */
export const seed =
  (queryKey: QueryKey, data: unknown): Seed =>
  (qc) =>
    qc.setQueryData(queryKey, data);

/** Marks `queryKey` as failed with `error` (a 500 "database is locked" by default). */
export const failing =
  (queryKey: QueryKey, error: Error = new ApiError(500, "INTERNAL", "database is locked")): Seed =>
  (qc) =>
    qc.getQueryCache().build(qc, { queryKey }).setState({ status: "error", error, fetchStatus: "idle" });

/** The raw HTML, for checking links and attributes. */
export function screenHtml(el: ReactElement, route: string, path: string, ...seeds: Seed[]): string {
  const qc = new QueryClient({
    defaultOptions: { queries: { retry: false, retryOnMount: false, staleTime: Infinity } },
  });
  for (const s of seeds) s(qc);
  return renderToStaticMarkup(
    <QueryClientProvider client={qc}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={route} element={el} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/**
 * The screen's text (with aria-labels, as a screen reader hears them) at `path` under `route`, with
 * the cache seeded. Queries left unseeded stay loading.
 */
export function screenText(el: ReactElement, route: string, path: string, ...seeds: Seed[]): string {
  return (
    screenHtml(el, route, path, ...seeds)
      .replace(/aria-label="([^"]*)"/g, "> $1 <")
      // A line-break opportunity is no space in the text a reader sees.
      .replace(/<wbr\/?>/g, "")
      .replace(/<[^>]+>/g, " ")
      .replace(/&#x27;|&#39;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, "&")
      .replace(/\s+/g, " ")
  );
}
