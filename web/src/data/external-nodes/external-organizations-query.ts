import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { externalNodeKeys } from "@/data/external-nodes/keys";
import type { ExternalOrganization } from "@/data/external-nodes/types";

/** External Fabric organizations (MSP id, sign and TLS CA certificates) synced from connected consoles. */
export function useExternalOrganizationsQuery(): UseQueryResult<ExternalOrganization[]> {
  return useQuery({
    queryKey: externalNodeKeys.list("fabric-organizations"),
    queryFn: () => unwrap(api.GET("/external-nodes/fabric-organizations")),
  });
}
