import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { externalNodeKeys } from "@/data/external-nodes/keys";
import type { ExternalBesuNode } from "@/data/external-nodes/types";

/** External Besu nodes (enode and RPC URLs) synced from connected consoles. */
export function useExternalBesuNodesQuery(): UseQueryResult<ExternalBesuNode[]> {
  return useQuery({
    queryKey: externalNodeKeys.list("besu-nodes"),
    queryFn: () => unwrap(api.GET("/external-nodes/besu-nodes")),
  });
}
