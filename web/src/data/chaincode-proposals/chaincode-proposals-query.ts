import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { chaincodeProposalKeys } from "@/data/chaincode-proposals/keys";
import type { ChaincodeProposal, ChaincodeProposalDetail } from "@/data/chaincode-proposals/types";

/** How often the list refreshes while an accept runs on the server (build, install, approve take a while). */
export const ACCEPTING_REFRESH_MS = 3000;

/**
 * A network's chaincode proposals, newest first. Polls while one is `accepting`, so the row leaves its
 * pending state when the server is done even if the request that started it was left (page change).
 */
export function useChaincodeProposalsQuery(networkId: number): UseQueryResult<ChaincodeProposal[]> {
  return useQuery({
    queryKey: chaincodeProposalKeys.list(networkId),
    queryFn: () => unwrap(api.GET("/pro/chaincodes/proposals", { params: { query: { network_id: networkId } } })),
    enabled: Number.isFinite(networkId),
    refetchInterval: (q) => ((q.state.data ?? []).some((p) => p.status === "accepting") ? ACCEPTING_REFRESH_MS : false),
  });
}

/** How often a proposal's approvals are read again while it waits to be committed (other consoles approve meanwhile). */
export const APPROVALS_REFRESH_MS = 10_000;

/**
 * One proposal with each org's approval, which the server reads from a peer (CheckCommitReadiness) only
 * for this detail, not for the list. Enabled for proposals that have a local definition and are not
 * committed yet.
 */
export function useChaincodeProposalQuery(id: number, enabled: boolean): UseQueryResult<ChaincodeProposalDetail> {
  return useQuery({
    queryKey: chaincodeProposalKeys.detail(id),
    queryFn: () => unwrap(api.GET("/pro/chaincodes/proposals/{proposalId}", { params: { path: { proposalId: id } } })),
    enabled,
    refetchInterval: (q) => (q.state.data?.proposal.status === "committed" ? false : APPROVALS_REFRESH_MS),
  });
}
