import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap, type KeyInfo } from "@/api/client";
import { keyKeys } from "@/data/keys/keys";

export function useKeyQuery(id: number): UseQueryResult<KeyInfo> {
  return useQuery({
    queryKey: keyKeys.detail(id),
    queryFn: () => unwrap(api.GET("/keys/{id}", { params: { path: { id } } })),
    enabled: Number.isFinite(id),
  });
}
