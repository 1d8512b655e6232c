import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { sharingKeys } from "@/data/sharing/keys";
import type { ShareNetworkBody, ShareNetworkResult, SharePlatform } from "@/data/sharing/types";

export interface ShareNetworkInput extends ShareNetworkBody {
  platform: SharePlatform;
}

/** Shares a network with connected consoles; the answer carries each recipient's outcome. */
export function useNetworkShareMutation(): UseMutationResult<ShareNetworkResult, Error, ShareNetworkInput> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ platform, ...body }: ShareNetworkInput) =>
      unwrap(
        platform === "fabric"
          ? api.POST("/pro/sharing/network", { body })
          : api.POST("/pro/sharing/besu-network", { body }),
      ),
    onSettled: () => qc.invalidateQueries({ queryKey: sharingKeys.networks() }),
  });
}
