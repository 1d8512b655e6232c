import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap, type IssuedIdentity } from "@/api/client";
import { keyKeys } from "@/data/keys/keys";
import { organizationKeys } from "@/data/organizations/keys";

export interface IdentityIssueVars {
  organizationId: number;
  name: string;
  description?: string;
  role: "admin" | "client" | "peer" | "orderer";
  dnsNames?: string[];
  ipAddresses?: string[];
}

/** Issues a new identity signed by the organization's signing CA (POST /organizations/{id}/keys). */
export function useIdentityIssueMutation(): UseMutationResult<IssuedIdentity, Error, IdentityIssueVars> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ organizationId, ...body }: IdentityIssueVars) =>
      unwrap(api.POST("/organizations/{id}/keys", { params: { path: { id: organizationId } }, body })),
    onSuccess: async (_d, v) => {
      await qc.invalidateQueries({ queryKey: organizationKeys.identities(v.organizationId) });
      await qc.invalidateQueries({ queryKey: keyKeys.all });
    },
  });
}
