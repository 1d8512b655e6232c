import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { fabricNetworkKeys } from "@/data/fabric-networks/keys";
import type {
  ImportFabricNetworkBody,
  ImportFabricNetworkWithOrgBody,
  ImportNetworkResult,
} from "@/data/fabric-networks/types";

/** Imports a channel from its genesis (or a later config) block, base64 (POST /networks/fabric/import). */
export function useFabricNetworkImportMutation(): UseMutationResult<
  ImportNetworkResult,
  Error,
  ImportFabricNetworkBody
> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body) => unwrap(api.POST("/networks/fabric/import", { body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: fabricNetworkKeys.all }),
  });
}

/**
 * Imports a channel by reading it from one of its orderers (by URL, or an external orderer by id)
 * with a member org's admin.
 */
export function useFabricNetworkImportWithOrgMutation(): UseMutationResult<
  ImportNetworkResult,
  Error,
  ImportFabricNetworkWithOrgBody
> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body) => unwrap(api.POST("/networks/fabric/import-with-org", { body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: fabricNetworkKeys.all }),
  });
}
