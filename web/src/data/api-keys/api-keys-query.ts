import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap, type APIKey } from "@/api/client";
import { apiKeyKeys } from "@/data/api-keys/keys";

export function useApiKeysQuery(): UseQueryResult<APIKey[]> {
  return useQuery({ queryKey: apiKeyKeys.list(), queryFn: () => unwrap(api.GET("/api-keys")) });
}
