import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap, type ResponseOf } from "@/api/client";
import { besuNetworkKeys } from "@/data/besu-networks/keys";

export type BesuNetworkPage = ResponseOf<"/networks/besu", "get">;

/** A page of Besu networks (limit/offset). */
export function useBesuNetworksQuery(limit: number, offset = 0): UseQueryResult<BesuNetworkPage> {
  return useQuery({
    queryKey: besuNetworkKeys.list(limit, offset),
    queryFn: () => unwrap(api.GET("/networks/besu", { params: { query: { limit, offset } } })),
    placeholderData: (prev) => prev,
  });
}
