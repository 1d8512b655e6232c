import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap, type NodePage, type NodeStatus } from "@/api/client";
import { nodeKeys, type NodeFilters } from "@/data/nodes/keys";
import { hasTransientNode, NODE_POLL_MS } from "@/data/nodes/node-status";

/** A page of nodes, filtered by platform, status and name; polls while any node is changing state. */
export function useNodesQuery(f: NodeFilters): UseQueryResult<NodePage> {
  return useQuery({
    queryKey: nodeKeys.list(f),
    queryFn: () =>
      unwrap(
        api.GET("/nodes", {
          params: {
            query: {
              page: f.page,
              limit: f.limit,
              ...(f.platform ? { platform: f.platform } : {}),
              ...(f.status ? { status: f.status } : {}),
              ...(f.name ? { name: f.name } : {}),
              ...(f.networkId !== undefined ? { networkId: f.networkId } : {}),
            },
          },
        }),
      ),
    placeholderData: (prev) => prev,
    refetchInterval: (q) => (hasTransientNode(q.state.data?.items ?? []) ? NODE_POLL_MS : false),
  });
}

export const NODE_STATUSES: readonly NodeStatus[] = ["RUNNING", "STARTING", "PENDING", "STOPPING", "STOPPED", "ERROR"];

/** Node totals per status (one small request per status), for the dashboard. */
export function useNodeCountsQuery(): UseQueryResult<{ total: number; byStatus: Record<NodeStatus, number> }> {
  return useQuery({
    queryKey: nodeKeys.counts(),
    queryFn: async () => {
      const all = await Promise.all(
        NODE_STATUSES.map((status) =>
          unwrap(api.GET("/nodes", { params: { query: { page: 1, limit: 1, status } } })).then((p) => p.total),
        ),
      );
      const byStatus = Object.fromEntries(NODE_STATUSES.map((s, i) => [s, all[i] ?? 0])) as Record<NodeStatus, number>;
      return { total: all.reduce((a, b) => a + b, 0), byStatus };
    },
  });
}
