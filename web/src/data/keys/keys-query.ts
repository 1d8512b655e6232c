import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap, type KeyPage } from "@/api/client";
import { keyKeys, type KeyFilters } from "@/data/keys/keys";

/** A page of keys, filtered by provider, algorithm and curve (GET /keys/filter). */
export function useKeysQuery(filters: KeyFilters, enabled = true): UseQueryResult<KeyPage> {
  return useQuery({
    queryKey: keyKeys.list(filters),
    queryFn: () =>
      unwrap(
        api.GET("/keys/filter", {
          params: {
            query: {
              page: filters.page,
              pageSize: filters.pageSize,
              ...(filters.providerId !== undefined ? { provider_id: filters.providerId } : {}),
              ...(filters.algorithm ? { algorithm: filters.algorithm } : {}),
              ...(filters.curve ? { curve: filters.curve } : {}),
            },
          },
        }),
      ),
    enabled,
    placeholderData: (prev) => prev,
  });
}
