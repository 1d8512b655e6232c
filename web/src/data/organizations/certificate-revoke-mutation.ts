import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { organizationKeys } from "@/data/organizations/keys";

export type CertificateRevokeVars = { organizationId: number; revocationReason?: number } & (
  { serialNumber: string; certificate?: never } | { certificate: string; serialNumber?: never }
);

/** Adds a certificate to the organization's CRL, by hex serial or by its PEM. */
export function useCertificateRevokeMutation(): UseMutationResult<{ message: string }, Error, CertificateRevokeVars> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: CertificateRevokeVars) => {
      const path = { id: v.organizationId };
      const reason = v.revocationReason !== undefined ? { revocationReason: v.revocationReason } : {};
      return v.certificate !== undefined
        ? unwrap(
            api.POST("/organizations/{id}/crl/revoke/pem", {
              params: { path },
              body: { certificate: v.certificate, ...reason },
            }),
          )
        : unwrap(
            api.POST("/organizations/{id}/crl/revoke/serial", {
              params: { path },
              body: { serialNumber: v.serialNumber, ...reason },
            }),
          );
    },
    onSuccess: (_d, v) => qc.invalidateQueries({ queryKey: organizationKeys.revoked(v.organizationId) }),
  });
}
