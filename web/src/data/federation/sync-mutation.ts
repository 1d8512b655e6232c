import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { externalNodeKeys } from "@/data/external-nodes/keys";
import { federationKeys } from "@/data/federation/keys";
import type { SyncResult } from "@/data/federation/types";

/** Pulls a connected console's organizations and nodes into this console's external nodes. */
export function useSyncExternalNodesMutation(): UseMutationResult<SyncResult, Error, string> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (nodeId: string) => unwrap(api.POST("/node/sync-external-nodes", { body: { peer_node_id: nodeId } })),
    onSuccess: async (_r, nodeId) => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: externalNodeKeys.all }),
        qc.invalidateQueries({ queryKey: federationKeys.peerNodes(nodeId) }),
        qc.invalidateQueries({ queryKey: federationKeys.peers() }),
      ]);
    },
  });
}
