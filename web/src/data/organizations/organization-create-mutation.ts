import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap, type Organization } from "@/api/client";
import { organizationKeys } from "@/data/organizations/keys";
import { keyKeys } from "@/data/keys/keys";

export interface OrganizationCreateVars {
  mspId: string;
  name: string;
  description?: string;
  providerId?: number;
}

/** Creates an MSP: sign and TLS CAs plus admin and client identities, all new keys. */
export function useOrganizationCreateMutation(): UseMutationResult<Organization, Error, OrganizationCreateVars> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: OrganizationCreateVars) => unwrap(api.POST("/organizations", { body })),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: organizationKeys.all });
      await qc.invalidateQueries({ queryKey: keyKeys.all });
    },
  });
}
