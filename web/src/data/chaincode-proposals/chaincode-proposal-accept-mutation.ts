import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { chaincodeKeys } from "@/data/chaincodes/keys";
import { chaincodeProposalKeys } from "@/data/chaincode-proposals/keys";
import type { ChaincodeProposalDetail } from "@/data/chaincode-proposals/types";

/** POST /pro/chaincodes/proposals/{proposalId}/accept: build, install, start the server, approve (can take a minute). */
export function acceptChaincodeProposal(proposalId: number): Promise<ChaincodeProposalDetail> {
  return unwrap(api.POST("/pro/chaincodes/proposals/{proposalId}/accept", { params: { path: { proposalId } } }));
}

/** Accepts a proposal; a failure leaves it `failed` with its error on the server, so the list is refetched either way. */
export function useAcceptChaincodeProposalMutation(): UseMutationResult<ChaincodeProposalDetail, Error, number> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: acceptChaincodeProposal,
    onSettled: async () => {
      await qc.invalidateQueries({ queryKey: chaincodeProposalKeys.all });
      await qc.invalidateQueries({ queryKey: chaincodeKeys.all });
    },
  });
}
