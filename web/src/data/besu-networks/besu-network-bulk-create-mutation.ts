import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap, type BulkCreateBesuBody, type BulkCreateBesuResult } from "@/api/client";
import { besuNetworkKeys } from "@/data/besu-networks/keys";
import { keyKeys } from "@/data/keys/keys";
import { nodeKeys } from "@/data/nodes/keys";

/**
 * N validator keys, the QBFT network and N nodes in one request (POST /networks/besu/bulk-create).
 * The server rolls everything back on failure; keys, networks and nodes are refreshed either way.
 */
export function useBesuBulkCreateMutation(): UseMutationResult<BulkCreateBesuResult, Error, BulkCreateBesuBody> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: BulkCreateBesuBody) => unwrap(api.POST("/networks/besu/bulk-create", { body })),
    onSettled: async () => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: besuNetworkKeys.all }),
        qc.invalidateQueries({ queryKey: nodeKeys.all }),
        qc.invalidateQueries({ queryKey: keyKeys.all }),
      ]);
    },
  });
}
