import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap, type BesuNetwork } from "@/api/client";
import { besuNetworkKeys } from "@/data/besu-networks/keys";

export function useBesuNetworkQuery(id: number): UseQueryResult<BesuNetwork> {
  return useQuery({
    queryKey: besuNetworkKeys.detail(id),
    queryFn: () => unwrap(api.GET("/networks/besu/{id}", { params: { path: { id } } })),
    enabled: Number.isFinite(id),
  });
}
