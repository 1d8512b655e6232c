import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { externalNodeKeys } from "@/data/external-nodes/keys";
import type { ExternalFabricOrderer } from "@/data/external-nodes/types";

/** External Fabric orderers (endpoint, certificates) synced from connected consoles. */
export function useExternalOrderersQuery(): UseQueryResult<ExternalFabricOrderer[]> {
  return useQuery({
    queryKey: externalNodeKeys.list("fabric-orderers"),
    queryFn: () => unwrap(api.GET("/external-nodes/fabric-orderers")),
  });
}
