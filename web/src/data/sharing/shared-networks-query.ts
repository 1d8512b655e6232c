import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { sharingKeys } from "@/data/sharing/keys";
import type { ShareDirection, SharedNetwork } from "@/data/sharing/types";

/** How often the lists refresh: shares arrive from other consoles at any time. */
export const SHARES_REFRESH_MS = 15_000;

/** Networks other consoles shared with this one (`received`) or this one shared (`sent`). */
export function useSharedNetworksQuery(direction: ShareDirection): UseQueryResult<SharedNetwork[]> {
  return useQuery({
    queryKey: sharingKeys.networkList(direction),
    queryFn: async () => (await unwrap(api.GET("/pro/shared-networks", { params: { query: { direction } } }))).networks,
    refetchInterval: SHARES_REFRESH_MS,
  });
}
