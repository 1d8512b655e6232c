import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { externalNodeKeys } from "@/data/external-nodes/keys";
import type { ExternalFabricPeer } from "@/data/external-nodes/types";

/** External Fabric peers (endpoint, certificates) synced from connected consoles. */
export function useExternalPeersQuery(): UseQueryResult<ExternalFabricPeer[]> {
  return useQuery({
    queryKey: externalNodeKeys.list("fabric-peers"),
    queryFn: () => unwrap(api.GET("/external-nodes/fabric-peers")),
  });
}
