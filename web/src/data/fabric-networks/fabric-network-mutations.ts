import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { forgetDeleted } from "@/data/forget-deleted";
import { fabricNetworkKeys } from "@/data/fabric-networks/keys";
import type {
  CreateFabricNetworkBody,
  FabricAnchorPeersBody,
  FabricNetwork,
  FabricUpdateConfigBody,
  FabricUpdateConfigResult,
} from "@/data/fabric-networks/types";

export type JoinRole = "peer" | "orderer";

/** Joins (or unjoins) one node: osnadmin for orderers, a CSCC JoinChain proposal for peers. */
export function joinNode(networkId: number, role: JoinRole, nodeId: number, unjoin = false): Promise<FabricNetwork> {
  if (role === "orderer") {
    const params = { params: { path: { id: networkId, ordererId: nodeId } } };
    return unwrap(
      unjoin
        ? api.POST("/networks/fabric/{id}/orderers/{ordererId}/unjoin", params)
        : api.POST("/networks/fabric/{id}/orderers/{ordererId}/join", params),
    );
  }
  const params = { params: { path: { id: networkId, peerId: nodeId } } };
  return unwrap(
    unjoin
      ? api.POST("/networks/fabric/{id}/peers/{peerId}/unjoin", params)
      : api.POST("/networks/fabric/{id}/peers/{peerId}/join", params),
  );
}

/** Creates the channel record and its genesis block; joins are separate calls (see joinNode). */
export function useFabricNetworkCreateMutation(): UseMutationResult<FabricNetwork, Error, CreateFabricNetworkBody> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateFabricNetworkBody) => unwrap(api.POST("/networks/fabric", { body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: fabricNetworkKeys.all }),
  });
}

export function useFabricNetworkDeleteMutation(): UseMutationResult<void, Error, number> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await unwrap(api.DELETE("/networks/fabric/{id}", { params: { path: { id } } }));
    },
    onSuccess: (_data, id) => forgetDeleted(qc, fabricNetworkKeys.detail(id), fabricNetworkKeys.all),
  });
}

/** Join or unjoin one member from the Nodes tab; errors show the spec's toast. */
export function useFabricJoinMutation(
  networkId: number,
): UseMutationResult<FabricNetwork, Error, { role: JoinRole; nodeId: number; unjoin?: boolean }> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ role, nodeId, unjoin }) => joinNode(networkId, role, nodeId, unjoin),
    onSettled: () => qc.invalidateQueries({ queryKey: fabricNetworkKeys.all }),
  });
}

/** Adds a node to the channel's member list: pending until joined, joined if it already has the channel. */
export function addNetworkNode(networkId: number, nodeId: number, role: JoinRole): Promise<FabricNetwork> {
  return unwrap(
    api.POST("/networks/fabric/{id}/nodes", { params: { path: { id: networkId } }, body: { nodeId, role } }),
  );
}

/** Adds a node to the channel's member list (pending until joined). */
export function useFabricAddNodeMutation(
  networkId: number,
): UseMutationResult<FabricNetwork, Error, { nodeId: number; role: JoinRole }> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ nodeId, role }) => addNetworkNode(networkId, nodeId, role),
    onSettled: () => qc.invalidateQueries({ queryKey: fabricNetworkKeys.all }),
  });
}

export function useFabricAnchorPeersMutation(
  networkId: number,
): UseMutationResult<{ transactionId: string }, Error, FabricAnchorPeersBody> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body) =>
      unwrap(api.POST("/networks/fabric/{id}/anchor-peers", { params: { path: { id: networkId } }, body })),
    onSettled: () => qc.invalidateQueries({ queryKey: fabricNetworkKeys.all }),
  });
}

/** Applies config update operations; the new config block then shows in current-channel-config. */
export function useFabricUpdateConfigMutation(
  networkId: number,
): UseMutationResult<FabricUpdateConfigResult, Error, FabricUpdateConfigBody> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body) =>
      unwrap(api.POST("/networks/fabric/{id}/update-config", { params: { path: { id: networkId } }, body })),
    onSettled: () => qc.invalidateQueries({ queryKey: fabricNetworkKeys.all }),
  });
}

/** Publishes an organization's current CRL into one channel's MSP (a config update). */
export function publishOrganizationCrl(networkId: number, organizationId: number): Promise<unknown> {
  return unwrap(
    api.POST("/networks/fabric/{id}/organization-crl", {
      params: { path: { id: networkId } },
      body: { organizationId },
    }),
  );
}
