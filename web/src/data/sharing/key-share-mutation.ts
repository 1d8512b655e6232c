import { useMutation, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { ShareKeyBody, ShareKeyResult } from "@/data/sharing/types";

/** Sends one key's public part to a connected console (nothing listed here changes). */
export function useKeyShareMutation(): UseMutationResult<ShareKeyResult, Error, ShareKeyBody> {
  return useMutation({
    mutationFn: (body: ShareKeyBody) => unwrap(api.POST("/pro/sharing/key", { body })),
  });
}
