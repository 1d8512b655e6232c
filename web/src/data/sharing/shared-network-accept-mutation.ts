import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { besuNetworkKeys } from "@/data/besu-networks/keys";
import { fabricNetworkKeys } from "@/data/fabric-networks/keys";
import { sharingKeys } from "@/data/sharing/keys";
import type { AcceptSharedNetworkResult } from "@/data/sharing/types";

/**
 * Accepts a received network: the server imports it (a Fabric channel from its genesis block, or a
 * Besu network from its genesis) and answers the new local network's id. The network lists are
 * refetched as well, since one was added.
 */
export function useSharedNetworkAcceptMutation(): UseMutationResult<AcceptSharedNetworkResult, Error, string> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (shareId: string) =>
      unwrap(api.POST("/pro/shared-networks/{shareId}/accept", { params: { path: { shareId } } })),
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: sharingKeys.networks() }),
        qc.invalidateQueries({ queryKey: fabricNetworkKeys.all }),
        qc.invalidateQueries({ queryKey: besuNetworkKeys.all }),
      ]),
  });
}
