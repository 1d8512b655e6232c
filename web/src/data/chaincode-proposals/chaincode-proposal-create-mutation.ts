import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { chaincodeKeys } from "@/data/chaincodes/keys";
import { chaincodeProposalKeys } from "@/data/chaincode-proposals/keys";
import type { ChaincodeProposal, CreateChaincodeProposalBody } from "@/data/chaincode-proposals/types";

/** POST /pro/chaincodes/proposals. */
export function createChaincodeProposal(body: CreateChaincodeProposalBody): Promise<ChaincodeProposal> {
  return unwrap(api.POST("/pro/chaincodes/proposals", { body }));
}

/** Proposes a definition; the server may create a chaincode and a definition for it, so both caches go stale. */
export function useCreateChaincodeProposalMutation(): UseMutationResult<
  ChaincodeProposal,
  Error,
  CreateChaincodeProposalBody
> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createChaincodeProposal,
    onSettled: async () => {
      await qc.invalidateQueries({ queryKey: chaincodeProposalKeys.all });
      await qc.invalidateQueries({ queryKey: chaincodeKeys.all });
    },
  });
}
