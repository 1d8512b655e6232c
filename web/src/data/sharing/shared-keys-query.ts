import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { sharingKeys } from "@/data/sharing/keys";
import type { SharedKeyFilters, SharedKeyList } from "@/data/sharing/types";

/** Public keys connected consoles shared with this one, a page at a time. */
export function useSharedKeysQuery(filters: SharedKeyFilters): UseQueryResult<SharedKeyList> {
  return useQuery({
    queryKey: sharingKeys.keyList(filters),
    queryFn: () =>
      unwrap(
        api.GET("/pro/keys/shared-with-me", {
          params: {
            query: {
              limit: filters.limit,
              offset: filters.offset,
              ...(filters.status ? { status: filters.status } : {}),
              ...(filters.expired !== undefined ? { expired: filters.expired } : {}),
            },
          },
        }),
      ),
    placeholderData: (prev) => prev,
  });
}
