import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { federationKeys } from "@/data/federation/keys";
import type { AcceptResult } from "@/data/federation/types";

/**
 * Accepts another console's invitation; both consoles then list each other. Silent: the form shows
 * the server's refusal (altered, expired, already used, unreachable) next to the field.
 */
export function useInvitationAcceptMutation(): UseMutationResult<AcceptResult, Error, string> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (jwt: string) => unwrap(api.POST("/node/accept-invitation", { body: { invitation_jwt: jwt } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: federationKeys.peers() }),
    meta: { silent: true },
  });
}
