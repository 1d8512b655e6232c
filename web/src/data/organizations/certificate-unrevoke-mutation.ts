import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { organizationKeys } from "@/data/organizations/keys";

export interface CertificateUnrevokeVars {
  organizationId: number;
  serialNumber: string;
}

/** Takes a serial off the organization's CRL (DELETE /organizations/{id}/crl/revoke/serial). */
export function useCertificateUnrevokeMutation(): UseMutationResult<
  { message: string },
  Error,
  CertificateUnrevokeVars
> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ organizationId, serialNumber }: CertificateUnrevokeVars) =>
      unwrap(
        api.DELETE("/organizations/{id}/crl/revoke/serial", {
          params: { path: { id: organizationId } },
          body: { serialNumber },
        }),
      ),
    onSuccess: (_d, v) => qc.invalidateQueries({ queryKey: organizationKeys.revoked(v.organizationId) }),
  });
}
