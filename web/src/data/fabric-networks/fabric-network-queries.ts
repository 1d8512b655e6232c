import { queryOptions, useQueries, useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { fabricNetworkKeys } from "@/data/fabric-networks/keys";
import type {
  FabricBlock,
  FabricBlockPage,
  FabricChannelConfig,
  FabricChannelInfo,
  FabricNetwork,
  FabricNetworkMap,
  FabricNetworkNode,
  FabricNetworkPage,
} from "@/data/fabric-networks/types";

const path = (id: number) => ({ params: { path: { id } } });

/** A page of Fabric networks (channels), limit/offset. */
export function useFabricNetworksQuery(limit: number, offset = 0): UseQueryResult<FabricNetworkPage> {
  return useQuery({
    queryKey: fabricNetworkKeys.list(limit, offset),
    queryFn: () => unwrap(api.GET("/networks/fabric", { params: { query: { limit, offset } } })),
    placeholderData: (prev) => prev,
  });
}

export function useFabricNetworkQuery(id: number): UseQueryResult<FabricNetwork> {
  return useQuery({
    queryKey: fabricNetworkKeys.detail(id),
    queryFn: () => unwrap(api.GET("/networks/fabric/{id}", path(id))),
    enabled: Number.isFinite(id),
  });
}

/** The channel's members and their join status; polls while any join is pending. */
export function useFabricNetworkNodesQuery(id: number): UseQueryResult<FabricNetworkNode[]> {
  return useQuery({
    queryKey: fabricNetworkKeys.nodes(id),
    queryFn: async () => (await unwrap(api.GET("/networks/fabric/{id}/nodes", path(id)))).nodes,
    enabled: Number.isFinite(id),
    refetchInterval: (q) => ((q.state.data ?? []).some((n) => n.status === "pending") ? 2000 : false),
  });
}

export function useFabricChannelInfoQuery(id: number): UseQueryResult<FabricChannelInfo> {
  return useQuery({
    queryKey: fabricNetworkKeys.info(id),
    queryFn: () => unwrap(api.GET("/networks/fabric/{id}/info", path(id))),
    enabled: Number.isFinite(id),
    retry: false,
  });
}

/** A page of blocks, newest first, read through Deliver from a joined node. */
export function useFabricBlocksQuery(id: number, limit: number, offset = 0): UseQueryResult<FabricBlockPage> {
  return useQuery({
    queryKey: fabricNetworkKeys.blocks(id, limit, offset),
    queryFn: () =>
      unwrap(
        api.GET("/networks/fabric/{id}/blocks", {
          params: { path: { id }, query: { limit, offset, reverse: "true" } },
        }),
      ),
    enabled: Number.isFinite(id),
    placeholderData: (prev) => prev,
    retry: false,
  });
}

export function useFabricBlockQuery(id: number, blockNum: number): UseQueryResult<FabricBlock> {
  return useQuery({
    queryKey: fabricNetworkKeys.block(id, blockNum),
    queryFn: async () =>
      (await unwrap(api.GET("/networks/fabric/{id}/blocks/{blockNum}", { params: { path: { id, blockNum } } }))).block,
    enabled: Number.isFinite(id) && Number.isFinite(blockNum),
    retry: false,
  });
}

/** The genesis config ("genesis") or the latest config block's ("current"), as configtxlator JSON. */
export function useFabricChannelConfigQuery(
  id: number,
  which: "genesis" | "current",
): UseQueryResult<FabricChannelConfig> {
  return useQuery({
    queryKey: fabricNetworkKeys.config(id, which),
    queryFn: () =>
      unwrap(
        which === "current"
          ? api.GET("/networks/fabric/{id}/current-channel-config", path(id))
          : api.GET("/networks/fabric/{id}/channel-config", path(id)),
      ),
    enabled: Number.isFinite(id),
    retry: false,
  });
}

function networkMapOptions(id: number) {
  return queryOptions({
    queryKey: fabricNetworkKeys.map(id),
    queryFn: () => unwrap(api.GET("/networks/fabric/{id}/map", path(id))),
    enabled: Number.isFinite(id),
    retry: false,
  });
}

export function useFabricNetworkMapQuery(id: number): UseQueryResult<FabricNetworkMap> {
  return useQuery(networkMapOptions(id));
}

/** The maps (members and heights) of several channels, one request each: callers page the list. */
export function useFabricNetworkMapsQueries(ids: readonly number[]): UseQueryResult<FabricNetworkMap>[] {
  return useQueries({ queries: ids.map(networkMapOptions) });
}
