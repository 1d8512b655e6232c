import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap, type OrganizationPage } from "@/api/client";
import { organizationKeys } from "@/data/organizations/keys";

/** A page of Fabric organizations (limit/offset). */
export function useOrganizationsQuery(limit: number, offset = 0): UseQueryResult<OrganizationPage> {
  return useQuery({
    queryKey: organizationKeys.list(limit, offset),
    queryFn: () => unwrap(api.GET("/organizations", { params: { query: { limit, offset } } })),
    placeholderData: (prev) => prev,
  });
}
