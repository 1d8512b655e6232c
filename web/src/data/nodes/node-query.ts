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

/**
 * The request behind {@link useFabricDefaultsQuery}. Only the batch endpoint takes a mode: container
 * nodes get an external endpoint on this machine's network address (inside a container 127.0.0.1 is
 * the container), so the docker proposal comes from there.
 */
export function fabricDefaultsOptions(kind: "peer" | "orderer", runtime: "service" | "docker" = "service") {
  return queryOptions({
    queryKey: nodeKeys.defaults(kind, runtime),
    queryFn: async (): Promise<FabricNodeDefaults> => {
      if (runtime === "service")
        return unwrap(
          kind === "peer" ? api.GET("/nodes/defaults/fabric-peer") : api.GET("/nodes/defaults/fabric-orderer"),
        );
      const query = { peerCount: kind === "peer" ? 1 : 0, ordererCount: kind === "orderer" ? 1 : 0, mode: runtime };
      const d = await unwrap(api.GET("/nodes/defaults/fabric", { params: { query } }));
      const one = kind === "peer" ? d.peers[0] : d.orderers[0];
      if (!one) throw new Error(`the server proposed no ${kind} addresses`);
      return one;
    },
    staleTime: 0,
    gcTime: 0,
  });
}

/** Free addresses the server proposes for a new peer or orderer; never cached (ports get taken). */
export function useFabricDefaultsQuery(
  kind: "peer" | "orderer",
  runtime: "service" | "docker" = "service",
  enabled = true,
): UseQueryResult<FabricNodeDefaults> {
  return useQuery({ ...fabricDefaultsOptions(kind, runtime), enabled });
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
