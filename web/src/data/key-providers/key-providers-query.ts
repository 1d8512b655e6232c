import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap, type KeyProvider } from "@/api/client";
import { keyProviderKeys } from "@/data/key-providers/keys";

/** Key providers; only admins and managers may read them (PROVIDER_READ), so callers pass `enabled`. */
export function useKeyProvidersQuery(enabled = true): UseQueryResult<KeyProvider[]> {
  return useQuery({ queryKey: keyProviderKeys.list(), queryFn: () => unwrap(api.GET("/key-providers")), enabled });
}
