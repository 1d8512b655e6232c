import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { governanceKeys } from "@/data/governance/keys";
import type { Proposal, ProposalEvent } from "@/data/governance/types";

/** Signatures arrive from other consoles at any time, so open proposals refresh on their own. */
export const PROPOSAL_REFRESH_MS = 10_000;

/** The config proposals of one Fabric network, newest first. */
export function useNetworkProposalsQuery(networkId: number): UseQueryResult<Proposal[]> {
  return useQuery({
    queryKey: governanceKeys.list(networkId),
    queryFn: async () =>
      (await unwrap(api.GET("/pro/networks/proposals", { params: { query: { network_id: networkId } } }))).proposals,
    refetchInterval: PROPOSAL_REFRESH_MS,
  });
}

/** One proposal with its signatures and the policy count (reading it also checks staleness server-side). */
export function useProposalQuery(id: string): UseQueryResult<Proposal> {
  return useQuery({
    queryKey: governanceKeys.detail(id),
    queryFn: () => unwrap(api.GET("/pro/networks/proposals/{proposalId}", { params: { path: { proposalId: id } } })),
    refetchInterval: (q) => (q.state.data?.status === "submitted" ? false : PROPOSAL_REFRESH_MS),
  });
}

/** The proposal's own timeline: created, signed, shared, received, stale, submitted. */
export function useProposalEventsQuery(id: string): UseQueryResult<ProposalEvent[]> {
  return useQuery({
    queryKey: governanceKeys.events(id),
    queryFn: () =>
      unwrap(api.GET("/pro/networks/proposals/{proposalId}/events", { params: { path: { proposalId: id } } })),
    refetchInterval: PROPOSAL_REFRESH_MS,
  });
}
