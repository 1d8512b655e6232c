import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { chaincodeProposalKeys } from "@/data/chaincode-proposals/keys";
import type { ChaincodeProposal } from "@/data/chaincode-proposals/types";

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
