import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { chaincodeProposalKeys } from "@/data/chaincode-proposals/keys";
import type { ShareChaincodeProposalResult } from "@/data/chaincode-proposals/types";

export interface ShareChaincodeProposalInput {
  proposalId: number;
  /** Connection ids (GET /node/connected-peers). */
  recipients: number[];
}

/** POST /pro/chaincodes/proposals/{proposalId}/share. */
export function shareChaincodeProposal({
  proposalId,
  recipients,
}: ShareChaincodeProposalInput): Promise<ShareChaincodeProposalResult> {
  return unwrap(
    api.POST("/pro/chaincodes/proposals/{proposalId}/share", {
      params: { path: { proposalId } },
      body: { recipients },
    }),
  );
}

/** Sends a proposal (definition and source) to connected consoles; `sharedWith` changes, so the list is refetched. */
export function useShareChaincodeProposalMutation(): UseMutationResult<
  ShareChaincodeProposalResult,
  Error,
  ShareChaincodeProposalInput
> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: shareChaincodeProposal,
    onSettled: () => qc.invalidateQueries({ queryKey: chaincodeProposalKeys.all }),
  });
}
