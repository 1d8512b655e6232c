import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap, type APIKey, type APIKeyLog } from "@/api/client";
import { apiKeyKeys } from "@/data/api-keys/keys";

export function useApiKeyQuery(id: number): UseQueryResult<APIKey> {
  return useQuery({
    queryKey: apiKeyKeys.detail(id),
    queryFn: () => unwrap(api.GET("/api-keys/{id}", { params: { path: { id } } })),
    enabled: Number.isFinite(id),
  });
}

export function useApiKeyLogsQuery(id: number, limit = 100): UseQueryResult<APIKeyLog[]> {
  return useQuery({
    queryKey: [...apiKeyKeys.logs(id), limit],
    queryFn: () => unwrap(api.GET("/api-keys/{id}/logs", { params: { path: { id }, query: { limit } } })),
    enabled: Number.isFinite(id),
  });
}
