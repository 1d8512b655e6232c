import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap, type IssuedIdentity } from "@/api/client";
import { keyKeys } from "@/data/keys/keys";
import { organizationKeys } from "@/data/organizations/keys";

export interface IdentityRenewVars {
  organizationId: number;
  keyId: number;
  validFor?: string;
}

/** Reissues an identity's certificate from the CA that issued it (POST /organizations/{id}/keys/renew). */
export function useIdentityRenewMutation(): UseMutationResult<IssuedIdentity, Error, IdentityRenewVars> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ organizationId, ...body }: IdentityRenewVars) =>
      unwrap(api.POST("/organizations/{id}/keys/renew", { params: { path: { id: organizationId } }, body })),
    onSuccess: async (_d, v) => {
      await qc.invalidateQueries({ queryKey: organizationKeys.all });
      await qc.invalidateQueries({ queryKey: keyKeys.detail(v.keyId) });
    },
  });
}
