import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap, type ResponseOf } from "@/api/client";
import { keyProviderKeys } from "@/data/key-providers/keys";

export type VaultStatus = ResponseOf<"/key-providers/{id}/vault/status", "get">;

/** How often the status card asks again: a managed server takes a few seconds to start and unseal. */
export const VAULT_STATUS_POLL_MS = 3000;

export function fetchVaultStatus(id: number): Promise<VaultStatus> {
  return unwrap(api.GET("/key-providers/{id}/vault/status", { params: { path: { id } } }));
}

/** The Vault server's state (and the managed process's), polled while the card is on screen. */
export function useVaultStatusQuery(id: number, enabled = true): UseQueryResult<VaultStatus> {
  return useQuery({
    queryKey: keyProviderKeys.vaultStatus(id),
    queryFn: () => fetchVaultStatus(id),
    enabled: enabled && Number.isFinite(id),
    refetchInterval: VAULT_STATUS_POLL_MS,
  });
}
