import {
  useMutation,
  useQuery,
  useQueryClient,
  type UseMutationResult,
  type UseQueryResult,
} from "@tanstack/react-query";
import { api, unwrap, type ResponseOf } from "@/api/client";
import { nodeKeys } from "@/data/nodes/keys";

export type RpcBlock = Record<string, unknown> | null;
export type DecodedInput = ResponseOf<"/nodes/{id}/rpc/decode-input", "get">;

const path = (id: number) => ({ path: { id } });

/** Chain id and latest block number of a Besu node (GET /nodes/{id}/rpc/chain-id, block-number). */
export function useBesuChainQuery(
  id: number,
  enabled = true,
): UseQueryResult<{ chainId: string; blockNumber: string }> {
  return useQuery({
    queryKey: nodeKeys.rpc(id, "chain"),
    queryFn: async () => {
      const [chainId, blockNumber] = await Promise.all([
        unwrap(api.GET("/nodes/{id}/rpc/chain-id", { params: path(id) })),
        unwrap(api.GET("/nodes/{id}/rpc/block-number", { params: path(id) })),
      ]);
      return { chainId, blockNumber };
    },
    enabled,
    refetchInterval: 5000,
  });
}

export function useBesuBlockQuery(
  id: number,
  number: string,
  fullTx = false,
  enabled = true,
): UseQueryResult<RpcBlock> {
  return useQuery({
    queryKey: nodeKeys.rpc(id, "block", number, fullTx),
    queryFn: () =>
      unwrap(
        api.GET("/nodes/{id}/rpc/block-by-number", {
          params: { ...path(id), query: { number, fullTx: fullTx ? "true" : "false" } },
        }),
      ),
    enabled,
    staleTime: 60_000,
  });
}

export function useBesuPendingVotesQuery(id: number, enabled = true): UseQueryResult<Record<string, boolean>> {
  return useQuery({
    queryKey: nodeKeys.rpc(id, "pending-votes"),
    queryFn: () => unwrap(api.GET("/nodes/{id}/rpc/qbft-pending-votes", { params: path(id) })),
    enabled,
    refetchInterval: 10_000,
  });
}

export function useBesuValidatorsQuery(id: number, blockNumber = "latest", enabled = true): UseQueryResult<string[]> {
  return useQuery({
    queryKey: nodeKeys.rpc(id, "validators", blockNumber),
    queryFn: () =>
      unwrap(
        api.GET("/nodes/{id}/rpc/qbft-validators-by-block-number", { params: { ...path(id), query: { blockNumber } } }),
      ),
    enabled,
    refetchInterval: 10_000,
  });
}

export function fetchBalance(id: number, address: string): Promise<string> {
  return unwrap(
    api.GET("/nodes/{id}/rpc/balance", { params: { ...path(id), query: { address, blockTag: "latest" } } }),
  );
}

/** eth_getCode at the latest block: "0x" for an account without code. */
export function fetchCode(id: number, address: string): Promise<string> {
  return unwrap(api.GET("/nodes/{id}/rpc/code", { params: { ...path(id), query: { address, blockTag: "latest" } } }));
}

/** eth_getStorageAt: one 32-byte slot at the latest block. */
export function fetchStorage(id: number, address: string, position: string): Promise<string> {
  return unwrap(
    api.GET("/nodes/{id}/rpc/storage", {
      params: { ...path(id), query: { address, position, blockTag: "latest" } },
    }),
  );
}

export function decodeInput(id: number, input: string, abi?: string): Promise<DecodedInput> {
  return unwrap(
    api.GET("/nodes/{id}/rpc/decode-input", { params: { ...path(id), query: { input, ...(abi ? { abi } : {}) } } }),
  );
}

export interface VoteVars {
  nodeId: number;
  validatorAddress: string;
  vote: boolean;
  force?: boolean;
}

/** Proposes adding (vote true) or removing a validator; silent: the caller shows the quorum warning itself. */
export function useProposeVoteMutation(): UseMutationResult<boolean, Error, VoteVars> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ nodeId, ...body }: VoteVars) =>
      unwrap(api.POST("/nodes/{id}/rpc/qbft-propose-validator-vote", { params: path(nodeId), body })),
    onSuccess: (_d, v) => qc.invalidateQueries({ queryKey: nodeKeys.rpc(v.nodeId, "pending-votes") }),
    meta: { silent: true },
  });
}

export function useDiscardVoteMutation(): UseMutationResult<
  boolean,
  Error,
  { nodeId: number; validatorAddress: string }
> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ nodeId, validatorAddress }) =>
      unwrap(
        api.POST("/nodes/{id}/rpc/qbft-discard-validator-vote", { params: path(nodeId), body: { validatorAddress } }),
      ),
    onSuccess: (_d, v) => qc.invalidateQueries({ queryKey: nodeKeys.rpc(v.nodeId, "pending-votes") }),
  });
}
