import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap, type Organization, type OrganizationKey, type RevokedCertificate } from "@/api/client";
import { organizationKeys } from "@/data/organizations/keys";

export function useOrganizationQuery(id: number): UseQueryResult<Organization> {
  return useQuery({
    queryKey: organizationKeys.detail(id),
    queryFn: () => unwrap(api.GET("/organizations/{id}", { params: { path: { id } } })),
    enabled: Number.isFinite(id),
  });
}

/** The organization's CAs and identities (GET /organizations/{id}/keys). */
export function useOrganizationIdentitiesQuery(id: number): UseQueryResult<OrganizationKey[]> {
  return useQuery({
    queryKey: organizationKeys.identities(id),
    // The API answers {keys: {"<keyId>": key}} (the upstream shape); the screens want a list, in key order.
    queryFn: async () =>
      Object.values((await unwrap(api.GET("/organizations/{id}/keys", { params: { path: { id } } }))).keys),
    enabled: Number.isFinite(id),
  });
}

export function useRevokedCertificatesQuery(id: number): UseQueryResult<RevokedCertificate[]> {
  return useQuery({
    queryKey: organizationKeys.revoked(id),
    queryFn: () => unwrap(api.GET("/organizations/{id}/revoked-certificates", { params: { path: { id } } })),
    enabled: Number.isFinite(id),
  });
}
