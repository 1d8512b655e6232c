import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { federationKeys } from "@/data/federation/keys";
import type { PeerNodes } from "@/data/federation/types";

/**
 * A connected console's organizations and nodes, fetched from it now (nothing is stored). Off while
 * `enabled` is false: a revoked connection answers 409, so the screen doesn't ask.
 */
export function usePeerNodesQuery(nodeId: string, enabled = true): UseQueryResult<PeerNodes> {
  return useQuery({
    queryKey: federationKeys.peerNodes(nodeId),
    queryFn: () => unwrap(api.GET("/node/connected-peers/{peer_id}/nodes", { params: { path: { peer_id: nodeId } } })),
    enabled,
  });
}
