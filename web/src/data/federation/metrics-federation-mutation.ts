import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { federationKeys } from "@/data/federation/keys";

export interface MetricsFederationInput {
  nodeId: string;
  enabled: boolean;
}

/**
 * Grants (or withdraws) a connected console read access to this console's node metrics. Not
 * optimistic: the switch shows what the server stored once the connection list is read again.
 */
export function useMetricsFederationMutation(): UseMutationResult<string, Error, MetricsFederationInput> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ nodeId, enabled }: MetricsFederationInput) => {
      const answer = await unwrap(
        api.POST("/node/metrics-federation", {
          body: { peer_node_id: nodeId, metrics_federation: enabled },
        }),
      );
      return answer.message ?? (enabled ? "Metrics federation granted" : "Metrics federation withdrawn");
    },
    onSettled: () => qc.invalidateQueries({ queryKey: federationKeys.peers() }),
  });
}
