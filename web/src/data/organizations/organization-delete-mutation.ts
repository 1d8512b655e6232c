import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keyKeys } from "@/data/keys/keys";
import { organizationKeys } from "@/data/organizations/keys";

export function useOrganizationDeleteMutation(): UseMutationResult<void, Error, number> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await unwrap(api.DELETE("/organizations/{id}", { params: { path: { id } } }));
    },
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: organizationKeys.all });
      await qc.invalidateQueries({ queryKey: keyKeys.all });
    },
  });
}
