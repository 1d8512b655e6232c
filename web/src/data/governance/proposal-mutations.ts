import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { governanceKeys } from "@/data/governance/keys";
import type { CreateProposalBody, Proposal, SignProposalResult, SubmitProposalResult } from "@/data/governance/types";

type Ok = Record<string, boolean>;
const path = (proposalId: string) => ({ params: { path: { proposalId } } });

/**
 * Computes a proposal against the channel's current config. Silent: the create form shows the
 * refusal next to the operations (it names the field, e.g. `body.operations.0.payload.msp_id`).
 */
export function useProposalCreateMutation(): UseMutationResult<Proposal, Error, CreateProposalBody> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateProposalBody) => unwrap(api.POST("/pro/networks/proposals", { body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: governanceKeys.lists() }),
    meta: { silent: true },
  });
}

/** Every action on one proposal refetches it, its timeline and the lists. */
function useProposalAction<V, R>(proposalId: string, fn: (v: V) => Promise<R>): UseMutationResult<R, Error, V> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: governanceKeys.detail(proposalId) }),
        qc.invalidateQueries({ queryKey: governanceKeys.events(proposalId) }),
        qc.invalidateQueries({ queryKey: governanceKeys.lists() }),
      ]),
  });
}

/** Signs as one of this console's orgs (its admin identity here). */
export function useProposalSignMutation(proposalId: string): UseMutationResult<SignProposalResult, Error, string> {
  return useProposalAction(proposalId, (mspId: string) =>
    unwrap(api.POST("/pro/networks/proposals/{proposalId}/sign", { ...path(proposalId), body: { msp_id: mspId } })),
  );
}

/** Withdraws one signature before submission. */
export function useSignatureWithdrawMutation(proposalId: string): UseMutationResult<Ok, Error, number> {
  return useProposalAction(proposalId, (signatureId: number) =>
    unwrap(
      api.DELETE("/pro/networks/proposals/{proposalId}/signatures/{signatureId}", {
        params: { path: { proposalId, signatureId } },
      }),
    ),
  );
}

/** Computes the update again against the current config; the old signatures are voided (proposer only). */
export function useProposalRecomputeMutation(proposalId: string): UseMutationResult<Proposal, Error, void> {
  return useProposalAction(proposalId, () =>
    unwrap(api.POST("/pro/networks/proposals/{proposalId}/recompute", path(proposalId))),
  );
}

/** Submits the signed update to the orderer once the policy is met. */
export function useProposalSubmitMutation(proposalId: string): UseMutationResult<SubmitProposalResult, Error, void> {
  return useProposalAction(proposalId, () =>
    unwrap(api.POST("/pro/networks/proposals/{proposalId}/submit", path(proposalId))),
  );
}

/** Sends the proposal to a connected console so its orgs can sign. */
export function useProposalShareMutation(proposalId: string): UseMutationResult<Ok, Error, number> {
  return useProposalAction(proposalId, (connectionId: number) =>
    unwrap(
      api.POST("/pro/networks/proposals/{proposalId}/share", {
        ...path(proposalId),
        body: { connection_id: connectionId },
      }),
    ),
  );
}

/** Sends one of this console's signatures back to the proposer's console. */
export function useSignatureShareMutation(
  proposalId: string,
): UseMutationResult<Ok, Error, { connectionId: number; signatureId: number }> {
  return useProposalAction(proposalId, ({ connectionId, signatureId }: { connectionId: number; signatureId: number }) =>
    unwrap(
      api.POST("/pro/networks/proposals/{proposalId}/signatures/share", {
        ...path(proposalId),
        body: { connection_id: connectionId, signature_id: signatureId },
      }),
    ),
  );
}
