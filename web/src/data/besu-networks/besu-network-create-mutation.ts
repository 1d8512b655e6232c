import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap, type BesuNetwork, type CreateBesuNetworkBody } from "@/api/client";
import { besuNetworkKeys } from "@/data/besu-networks/keys";

/** Creates a QBFT network: the server builds the genesis and its extraData from the validators. */
export function useBesuNetworkCreateMutation(): UseMutationResult<BesuNetwork, Error, CreateBesuNetworkBody> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateBesuNetworkBody) => unwrap(api.POST("/networks/besu", { body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: besuNetworkKeys.all }),
  });
}
