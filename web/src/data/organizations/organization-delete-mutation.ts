import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keyKeys } from "@/data/keys/keys";
import { forgetDeleted } from "@/data/forget-deleted";
import { organizationKeys } from "@/data/organizations/keys";

export function useOrganizationDeleteMutation(): UseMutationResult<void, Error, number> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await unwrap(api.DELETE("/organizations/{id}", { params: { path: { id } } }));
    },
    onSuccess: async (_data, id) => {
      await forgetDeleted(qc, organizationKeys.detail(id), organizationKeys.all);
      await qc.invalidateQueries({ queryKey: keyKeys.all });
    },
  });
}
