import { useMutation, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

export interface GenerateInvitationInput {
  expiresInHours: number;
  bidirectional: boolean;
}

/** Generates a one-time invitation (a signed JWT) for another console; nothing to refetch. */
export function useInvitationGenerateMutation(): UseMutationResult<string, Error, GenerateInvitationInput> {
  return useMutation({
    mutationFn: async ({ expiresInHours, bidirectional }: GenerateInvitationInput) =>
      (
        await unwrap(
          api.POST("/node/generate-invitation", {
            body: { bidirectional, options: { expires_in_hours: expiresInHours } },
          }),
        )
      ).invitation_jwt,
  });
}
