import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { sharingKeys } from "@/data/sharing/keys";

/** Deletes a share record here (a network already imported by a recipient stays there). */
export function useSharedNetworkDeleteMutation(): UseMutationResult<void, Error, string> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (shareId: string) => {
      await unwrap(api.DELETE("/pro/shared-networks/{shareId}", { params: { path: { shareId } } }));
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: sharingKeys.networks() }),
  });
}
