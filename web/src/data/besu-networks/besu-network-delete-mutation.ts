import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { besuNetworkKeys } from "@/data/besu-networks/keys";
import { forgetDeleted } from "@/data/forget-deleted";

export function useBesuNetworkDeleteMutation(): UseMutationResult<void, Error, number> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await unwrap(api.DELETE("/networks/besu/{id}", { params: { path: { id } } }));
    },
    onSuccess: (_data, id) => forgetDeleted(qc, besuNetworkKeys.detail(id), besuNetworkKeys.all),
  });
}
