import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap, type ResponseOf } from "@/api/client";
import { keyProviderKeys } from "@/data/key-providers/keys";

export type VaultOperationResult = ResponseOf<"/key-providers/{id}/vault/start", "post">;

/** Starts a managed OpenBao: initialises it on the first start, unseals it on every start. */
export function startVault(id: number): Promise<VaultOperationResult> {
  return unwrap(api.POST("/key-providers/{id}/vault/start", { params: { path: { id } } }));
}

/** Stops a managed OpenBao; its keys stay in its data directory. */
export function stopVault(id: number): Promise<VaultOperationResult> {
  return unwrap(api.POST("/key-providers/{id}/vault/stop", { params: { path: { id } } }));
}

/** Unseals a running managed OpenBao with the keys the console keeps. */
export function unsealVault(id: number): Promise<VaultOperationResult> {
  return unwrap(api.POST("/key-providers/{id}/vault/unseal", { params: { path: { id } } }));
}

function useVaultOperation(
  id: number,
  run: (id: number) => Promise<VaultOperationResult>,
): UseMutationResult<VaultOperationResult, Error, void> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => run(id),
    // Success or not, the status card should show what the server is doing now.
    onSettled: () => qc.invalidateQueries({ queryKey: keyProviderKeys.vaultStatus(id) }),
  });
}

export function useVaultStartMutation(id: number): UseMutationResult<VaultOperationResult, Error, void> {
  return useVaultOperation(id, startVault);
}

export function useVaultStopMutation(id: number): UseMutationResult<VaultOperationResult, Error, void> {
  return useVaultOperation(id, stopVault);
}

export function useVaultUnsealMutation(id: number): UseMutationResult<VaultOperationResult, Error, void> {
  return useVaultOperation(id, unsealVault);
}
