import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { unwrap } from "@/api/client";
import { sharingKeys } from "@/data/sharing/keys";
import { sharingApi } from "@/data/sharing/sharing-api";
import type { SharedNetwork, ShareNetworkBody, ShareNetworkResult, SharePlatform } from "@/data/sharing/types";

export interface ShareNetworkInput extends ShareNetworkBody {
  platform: SharePlatform;
}

/** A finished share and the sent records it left (one per share or per recipient), for the outcome. */
export interface ShareNetworkOutcome {
  result: ShareNetworkResult;
  sent: SharedNetwork[];
}

/**
 * Shares a network with connected consoles. The answer carries one status for the share; the sent
 * list is read afterwards so the screen can name each recipient that could not be reached.
 */
export function useNetworkShareMutation(): UseMutationResult<ShareNetworkOutcome, Error, ShareNetworkInput> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ platform, ...body }: ShareNetworkInput) => {
      const result = await unwrap(
        platform === "fabric"
          ? sharingApi.POST("/pro/sharing/network", { body })
          : sharingApi.POST("/pro/sharing/besu-network", { body }),
      );
      await qc.invalidateQueries({ queryKey: sharingKeys.networks() });
      const sent = await qc
        .fetchQuery({
          queryKey: sharingKeys.networkList("sent"),
          queryFn: async () =>
            (await unwrap(sharingApi.GET("/pro/shared-networks", { params: { query: { direction: "sent" } } })))
              .networks,
        })
        .catch(() => [] as SharedNetwork[]);
      return { result, sent: sent.filter((s) => s.id === result.shareId) };
    },
  });
}
