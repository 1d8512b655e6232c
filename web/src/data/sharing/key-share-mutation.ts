import { useMutation, type UseMutationResult } from "@tanstack/react-query";
import { unwrap } from "@/api/client";
import { sharingApi } from "@/data/sharing/sharing-api";
import type { ShareKeyBody, ShareKeyResult } from "@/data/sharing/types";

/** Sends one key's public part to a connected console (nothing listed here changes). */
export function useKeyShareMutation(): UseMutationResult<ShareKeyResult, Error, ShareKeyBody> {
  return useMutation({
    mutationFn: (body: ShareKeyBody) => unwrap(sharingApi.POST("/pro/sharing/key", { body })),
  });
}
