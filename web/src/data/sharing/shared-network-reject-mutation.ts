import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { sharingKeys } from "@/data/sharing/keys";
import type { RejectSharedNetworkResult } from "@/data/sharing/types";

/** Rejects a received network; it stays listed as rejected. */
export function useSharedNetworkRejectMutation(): UseMutationResult<RejectSharedNetworkResult, Error, string> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (shareId: string) =>
      unwrap(api.POST("/pro/shared-networks/{shareId}/reject", { params: { path: { shareId } } })),
    onSettled: () => qc.invalidateQueries({ queryKey: sharingKeys.networks() }),
  });
}
