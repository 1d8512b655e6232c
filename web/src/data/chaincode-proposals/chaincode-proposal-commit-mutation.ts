import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { chaincodeKeys } from "@/data/chaincodes/keys";
import { chaincodeProposalKeys } from "@/data/chaincode-proposals/keys";

export interface CommitProposalInput {
  /** The proposal's local definition. */
  definitionId: number;
  /** A running peer of this console on the channel; it gathers the endorsements and submits. */
  peerId: number;
}

/** Commits a proposal's definition with the chaincode lifecycle route (POST /sc/fabric/definitions/{id}/commit). */
export function commitProposalDefinition({ definitionId, peerId }: CommitProposalInput): Promise<unknown> {
  return unwrap(
    api.POST("/sc/fabric/definitions/{definitionId}/commit", {
      params: { path: { definitionId } },
      body: { peer_id: peerId },
    }),
  );
}

/** Commits the definition; the proposal becomes `committed`, so proposals and chaincodes are refetched. */
export function useCommitProposalMutation(): UseMutationResult<unknown, Error, CommitProposalInput> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: commitProposalDefinition,
    onSettled: async () => {
      await qc.invalidateQueries({ queryKey: chaincodeProposalKeys.all });
      await qc.invalidateQueries({ queryKey: chaincodeKeys.all });
    },
  });
}
