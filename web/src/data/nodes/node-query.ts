import { queryOptions, useQueries, useQuery, type UseQueryResult } from "@tanstack/react-query";
import {
  api,
  unwrap,
  type FabricNodeDefaults,
  type NodeEventPage,
  type NodeHealth,
  type NodeHealthHistory,
  type NodeInfo,
  type ResponseOf,
} from "@/api/client";
import { nodeKeys } from "@/data/nodes/keys";
import { isTransientStatus, NODE_POLL_MS } from "@/data/nodes/node-status";

/** One node; polls while it is starting, stopping or pending. */
export function useNodeQuery(id: number): UseQueryResult<NodeInfo> {
  return useQuery({
    queryKey: nodeKeys.detail(id),
    queryFn: () => unwrap(api.GET("/nodes/{id}", { params: { path: { id } } })),
    enabled: Number.isFinite(id),
    refetchInterval: (q) => (q.state.data && isTransientStatus(q.state.data.status) ? NODE_POLL_MS : false),
  });
}

export function useNodeEventsQuery(id: number, page: number, limit = 10): UseQueryResult<NodeEventPage> {
  return useQuery({
    queryKey: nodeKeys.events(id, page),
    queryFn: () => unwrap(api.GET("/nodes/{id}/events", { params: { path: { id }, query: { page, limit } } })),
    placeholderData: (prev) => prev,
  });
}

export function useNodeHealthQuery(id: number): UseQueryResult<NodeHealth> {
  return useQuery({
    queryKey: nodeKeys.health(id),
    queryFn: () => unwrap(api.GET("/nodes/{id}/health", { params: { path: { id } } })),
    refetchInterval: 15_000,
  });
}

function healthHistoryOptions(id: number, hours: number) {
  return queryOptions({
    queryKey: nodeKeys.healthHistory(id),
    queryFn: () => unwrap(api.GET("/nodes/{id}/health/history", { params: { path: { id }, query: { hours } } })),
    refetchInterval: 30_000,
  });
}

export function useNodeHealthHistoryQuery(id: number, hours = 24): UseQueryResult<NodeHealthHistory> {
  return useQuery(healthHistoryOptions(id, hours));
}

/** The health histories of several nodes (one request each: callers page the node list). */
export function useNodeHealthHistoriesQueries(ids: readonly number[], hours = 24): UseQueryResult<NodeHealthHistory>[] {
  return useQueries({ queries: ids.map((id) => healthHistoryOptions(id, hours)) });
}

/** Free addresses the server proposes for a new peer or orderer; never cached (ports get taken). */
export function useFabricDefaultsQuery(kind: "peer" | "orderer", enabled = true): UseQueryResult<FabricNodeDefaults> {
  return useQuery({
    queryKey: nodeKeys.defaults(kind),
    queryFn: () =>
      unwrap(kind === "peer" ? api.GET("/nodes/defaults/fabric-peer") : api.GET("/nodes/defaults/fabric-orderer")),
    enabled,
    staleTime: 0,
    gcTime: 0,
  });
}

export type BesuNodeDefaults = ResponseOf<"/nodes/defaults/besu-node", "get">;

export function useBesuDefaultsQuery(enabled = true): UseQueryResult<BesuNodeDefaults> {
  return useQuery({
    queryKey: nodeKeys.defaults("besu"),
    queryFn: () => unwrap(api.GET("/nodes/defaults/besu-node", { params: { query: { besuNodes: 1 } } })),
    enabled,
    staleTime: 0,
    gcTime: 0,
  });
}
