import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap, type ResponseOf } from "@/api/client";
import { fabricNetworkKeys } from "@/data/fabric-networks/keys";
import { governanceKeys } from "@/data/governance/keys";
import type { FabricNetwork } from "@/data/fabric-networks/types";

export type AddOrganizationResult = ResponseOf<"/networks/fabric/{id}/organizations", "post">;

/**
 * Adds one of this console's organizations to the channel: applied as a config update when this
 * console's orgs satisfy the channel's policy, else a governance proposal (the result says which).
 * Silent: the card shows the outcome, or the refusal, next to the organization.
 */
export function useFabricAddOrganizationMutation(
  networkId: number,
): UseMutationResult<AddOrganizationResult, Error, number> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (organizationId: number) =>
      unwrap(
        api.POST("/networks/fabric/{id}/organizations", {
          params: { path: { id: networkId } },
          body: { organizationId },
        }),
      ),
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: fabricNetworkKeys.all }),
        qc.invalidateQueries({ queryKey: governanceKeys.lists() }),
      ]),
    meta: { silent: true },
  });
}

/**
 * Takes a node out of the network record (DELETE .../peers|orderers/{id}); one that joined, or
 * whose join failed half-way, leaves the channel first.
 */
export function useFabricRemoveNodeMutation(
  networkId: number,
): UseMutationResult<FabricNetwork, Error, { role: "peer" | "orderer"; nodeId: number }> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ role, nodeId }) =>
      unwrap(
        role === "peer"
          ? api.DELETE("/networks/fabric/{id}/peers/{peerId}", { params: { path: { id: networkId, peerId: nodeId } } })
          : api.DELETE("/networks/fabric/{id}/orderers/{ordererId}", {
              params: { path: { id: networkId, ordererId: nodeId } },
            }),
      ),
    onSettled: () => qc.invalidateQueries({ queryKey: fabricNetworkKeys.all }),
  });
}
