import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap, type KeyProvider } from "@/api/client";
import { keyProviderKeys } from "@/data/key-providers/keys";

export function useKeyProviderQuery(id: number): UseQueryResult<KeyProvider> {
  return useQuery({
    queryKey: keyProviderKeys.detail(id),
    queryFn: () => unwrap(api.GET("/key-providers/{id}", { params: { path: { id } } })),
    enabled: Number.isFinite(id),
  });
}
