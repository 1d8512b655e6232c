import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { besuNetworkKeys } from "@/data/besu-networks/keys";

export interface BesuNetworkImportVars {
  name: string;
  description?: string;
  chainId?: number;
  genesisFile: string;
}

/** Imports a network from its genesis file (POST /networks/besu/import). */
export function useBesuNetworkImportMutation(): UseMutationResult<
  { message: string; networkId: number },
  Error,
  BesuNetworkImportVars
> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: BesuNetworkImportVars) => unwrap(api.POST("/networks/besu/import", { body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: besuNetworkKeys.all }),
  });
}
