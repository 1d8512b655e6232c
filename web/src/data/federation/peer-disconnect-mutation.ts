import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { federationKeys } from "@/data/federation/keys";

/** Disconnects a console: it is told (best effort) and both sides refuse each other from then on. */
export function usePeerDisconnectMutation(): UseMutationResult<string, Error, string> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (nodeId: string) =>
      (await unwrap(api.DELETE("/node/connected-peers/{node_id}", { params: { path: { node_id: nodeId } } }))).message,
    onSuccess: async (_m, nodeId) => {
      qc.removeQueries({ queryKey: federationKeys.peerNodes(nodeId) });
      await qc.invalidateQueries({ queryKey: federationKeys.peers() });
    },
  });
}
