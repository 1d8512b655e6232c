import { useQuery, useQueryClient, type QueryClient, type UseQueryResult } from "@tanstack/react-query";
import { API_BASE, api, unwrap } from "@/api/client";
import { toApiError } from "@/api/errors";
import { chaincodeKeys } from "@/data/chaincodes/keys";
import type {
  Chaincode,
  ChaincodeDefinition,
  CommittedChaincodes,
  DefinitionDockerInfo,
  DefinitionEvent,
  DefinitionStatus,
} from "@/data/chaincodes/types";

export function useChaincodesQuery(): UseQueryResult<Chaincode[]> {
  return useQuery({
    queryKey: chaincodeKeys.list(),
    queryFn: async () => (await unwrap(api.GET("/sc/fabric/chaincodes"))).chaincodes,
  });
}

/**
 * The chaincodes committed on a network's channel, read from one of its peers. The server adopts
 * those committed outside this console; when this read adopted one, the chaincode list is marked
 * stale so the new record shows.
 */
export async function fetchCommittedChaincodes(qc: QueryClient, networkId: number): Promise<CommittedChaincodes> {
  const data = await unwrap(
    api.GET("/networks/fabric/{id}/chaincodes/committed", { params: { path: { id: networkId } } }),
  );
  if (data.chaincodes.some((c) => c.adopted_now)) await qc.invalidateQueries({ queryKey: chaincodeKeys.list() });
  return data;
}

/** What a network's channel has committed (see fetchCommittedChaincodes), read again every 30 s while shown. */
export function useCommittedChaincodesQuery(networkId: number): UseQueryResult<CommittedChaincodes> {
  const qc = useQueryClient();
  return useQuery({
    queryKey: chaincodeKeys.committed(networkId),
    queryFn: () => fetchCommittedChaincodes(qc, networkId),
    enabled: Number.isFinite(networkId),
    refetchInterval: 30_000,
    retry: false,
  });
}

export function useChaincodeQuery(id: number): UseQueryResult<Chaincode> {
  return useQuery({
    queryKey: chaincodeKeys.detail(id),
    queryFn: () => unwrap(api.GET("/sc/fabric/chaincodes/{id}", { params: { path: { id } } })),
    enabled: Number.isFinite(id),
  });
}

export function useDefinitionsQuery(chaincodeId: number): UseQueryResult<ChaincodeDefinition[]> {
  return useQuery({
    queryKey: chaincodeKeys.definitions(chaincodeId),
    queryFn: async () =>
      (await unwrap(api.GET("/sc/fabric/chaincodes/{chaincodeId}/definitions", { params: { path: { chaincodeId } } })))
        .definitions,
    enabled: Number.isFinite(chaincodeId),
  });
}

/** Where a definition stands on the peers; polled every 3 s while shown (live progress). */
export function useDefinitionStatusQuery(definitionId: number | undefined): UseQueryResult<DefinitionStatus> {
  return useQuery({
    queryKey: chaincodeKeys.status(definitionId ?? 0),
    queryFn: () =>
      unwrap(
        api.GET("/sc/fabric/definitions/{definitionId}/status", {
          params: { path: { definitionId: definitionId as number } },
        }),
      ),
    enabled: definitionId !== undefined,
    refetchInterval: 3000,
    retry: false,
  });
}

export function useTimelineQuery(definitionId: number | undefined): UseQueryResult<DefinitionEvent[]> {
  return useQuery({
    queryKey: chaincodeKeys.timeline(definitionId ?? 0),
    queryFn: () =>
      unwrap(
        api.GET("/sc/fabric/definitions/{definitionId}/timeline", {
          params: { path: { definitionId: definitionId as number } },
        }),
      ),
    enabled: definitionId !== undefined,
    refetchInterval: 5000,
  });
}

/**
 * The container of a definition deployed from an image (id, image, state), polled while shown: a
 * crash restart runs a new container. 404 while nothing runs, so no retries.
 */
export function useDefinitionDockerInfoQuery(
  definitionId: number,
  enabled: boolean,
): UseQueryResult<DefinitionDockerInfo> {
  return useQuery({
    queryKey: chaincodeKeys.dockerInfo(definitionId),
    queryFn: () =>
      unwrap(api.GET("/sc/fabric/definitions/{definitionId}/docker-info", { params: { path: { definitionId } } })),
    enabled,
    refetchInterval: 5000,
    retry: false,
  });
}

/** The chaincode server's log (last lines, text). */
export function useChaincodeLogsQuery(definitionId: number | undefined, tail = 200): UseQueryResult<string> {
  return useQuery({
    queryKey: chaincodeKeys.logs(definitionId ?? 0),
    queryFn: async () => {
      const res = await fetch(`${API_BASE}/sc/fabric/definitions/${definitionId}/logs?tail=${tail}`, {
        credentials: "include",
      });
      const text = await res.text();
      if (!res.ok) throw toApiError(res.status, safeJson(text));
      return text;
    },
    enabled: definitionId !== undefined,
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The contract metadata (org.hyperledger.fabric:GetMetadata) of a running chaincode. */
export function useChaincodeMetadataQuery(chaincodeId: number): UseQueryResult<unknown> {
  return useQuery({
    queryKey: chaincodeKeys.metadata(chaincodeId),
    queryFn: async () =>
      (await unwrap(api.GET("/sc/fabric/chaincodes/{chaincodeId}/metadata", { params: { path: { chaincodeId } } })))
        .result,
    enabled: Number.isFinite(chaincodeId),
    retry: false,
  });
}
