import { keepPreviousData, useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap, type ResponseOf } from "@/api/client";
import { nodeKeys } from "@/data/nodes/keys";

export type FabricBulkDefaults = ResponseOf<"/nodes/defaults/fabric", "get">;

/** Free, mutually distinct addresses for several new peers and orderers; never cached (ports get taken). */
export function useFabricBulkDefaultsQuery(
  peerCount: number,
  ordererCount: number,
  enabled = true,
): UseQueryResult<FabricBulkDefaults> {
  return useQuery({
    queryKey: nodeKeys.defaults(`fabric-${peerCount}-${ordererCount}`),
    queryFn: () => unwrap(api.GET("/nodes/defaults/fabric", { params: { query: { peerCount, ordererCount } } })),
    enabled,
    staleTime: 0,
    gcTime: 0,
    placeholderData: keepPreviousData,
  });
}

/** One node's current status, read once (the wizard polls it while waiting for RUNNING). */
export function fetchNodeStatus(id: number): Promise<{ status: string; errorMessage?: string | undefined }> {
  return unwrap(api.GET("/nodes/{id}", { params: { path: { id } } }));
}

export function startNode(id: number): Promise<unknown> {
  return unwrap(api.POST("/nodes/{id}/start", { params: { path: { id } } }));
}
