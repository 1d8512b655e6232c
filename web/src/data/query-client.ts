import { MutationCache, QueryClient } from "@tanstack/react-query";
import { showMutationError } from "@/data/error-toast";

declare module "@tanstack/react-query" {
  interface Register {
    /** `silent`: the mutation shows its own error toast (login), so the global one stays quiet. */
    mutationMeta: { silent?: boolean };
  }
}

/** Queries never retry and never refetch on focus (spec §8); every failed mutation gets the standard toast. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 10_000 },
      mutations: { retry: false },
    },
    mutationCache: new MutationCache({
      onError: (error, _vars, _ctx, mutation) => {
        if (mutation.meta?.silent) return;
        showMutationError(error);
      },
    }),
  });
}

/**
 * Keeps `<html data-fetching="N">` at the number of queries in flight, so a browser test (and a
 * screenshot) can wait until the data of a screen has arrived instead of sleeping.
 */
export function markFetching(client: QueryClient, root: HTMLElement = document.documentElement): () => void {
  const update = () => {
    root.dataset.fetching = String(client.isFetching());
  };
  update();
  return client.getQueryCache().subscribe(update);
}
