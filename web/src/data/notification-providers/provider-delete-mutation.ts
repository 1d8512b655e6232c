import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { forgetDeleted } from "@/data/forget-deleted";
import { providerKeys } from "@/data/notification-providers/keys";

export function useProviderDeleteMutation(): UseMutationResult<void, Error, number> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await unwrap(api.DELETE("/notifications/providers/{id}", { params: { path: { id } } }));
    },
    onSuccess: (_r, id) => forgetDeleted(qc, providerKeys.detail(id), providerKeys.all),
  });
}
