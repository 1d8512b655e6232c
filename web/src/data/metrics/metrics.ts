import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQueries,
  useQuery,
  useQueryClient,
  type UseQueryResult,
} from "@tanstack/react-query";
import { api, unwrap, type ResponseOf } from "@/api/client";
import type { paths } from "@/api/schema";

export type PrometheusStatus = ResponseOf<"/metrics/status", "get">;
export type PrometheusDefaults = ResponseOf<"/metrics/defaults", "get">;
export type DeployBody = NonNullable<paths["/metrics/deploy"]["post"]>["requestBody"]["content"]["application/json"];

/** One scrape target as Prometheus reports it (GET /metrics/targets activeTargets[]). */
export interface ScrapeTarget {
  labels: Record<string, string>;
  scrapeUrl: string;
  health: "up" | "down" | "unknown";
  lastError: string;
  lastScrape: string;
  lastScrapeDuration: number;
}

/** A series of a range query: its labels and [unix seconds, value] points. */
export interface RangeSeries {
  metric: Record<string, string>;
  values: [number, string][];
}

export const metricsKeys = {
  all: ["metrics"] as const,
  status: () => [...metricsKeys.all, "status"] as const,
  defaults: () => [...metricsKeys.all, "defaults"] as const,
  targets: () => [...metricsKeys.all, "targets"] as const,
  range: (nodeId: number, query: string, rangeSeconds: number) =>
    [...metricsKeys.all, "range", nodeId, query, rangeSeconds] as const,
};

export function usePrometheusStatusQuery(): UseQueryResult<PrometheusStatus> {
  return useQuery({
    queryKey: metricsKeys.status(),
    queryFn: () => unwrap(api.GET("/metrics/status")),
    refetchInterval: (q) => (q.state.data?.status === "starting" ? 2000 : 15_000),
  });
}

export function usePrometheusDefaultsQuery(enabled: boolean): UseQueryResult<PrometheusDefaults> {
  return useQuery({ queryKey: metricsKeys.defaults(), queryFn: () => unwrap(api.GET("/metrics/defaults")), enabled });
}

export function useTargetsQuery(enabled: boolean): UseQueryResult<ScrapeTarget[]> {
  return useQuery({
    queryKey: metricsKeys.targets(),
    queryFn: async () => {
      const data = (await unwrap(api.GET("/metrics/targets"))) as { activeTargets?: ScrapeTarget[] };
      return data.activeTargets ?? [];
    },
    enabled,
    refetchInterval: 10_000,
  });
}

/** The step for a range: about 120 points, at least 5 s apart. */
export function stepFor(rangeSeconds: number): number {
  return Math.max(5, Math.ceil(rangeSeconds / 120));
}

/** The options of one node's range query over the last `rangeSeconds`, shared by the hooks below. */
function rangeQueryOptions(nodeId: number, query: string, rangeSeconds: number, refreshMs: number, enabled: boolean) {
  return queryOptions({
    queryKey: metricsKeys.range(nodeId, query, rangeSeconds),
    queryFn: async (): Promise<RangeSeries[]> => {
      const end = Math.ceil(Date.now() / 1000);
      const start = end - rangeSeconds;
      const res = await unwrap(
        api.GET("/metrics/node/{id}/range", {
          params: {
            path: { id: nodeId },
            query: { query, start: String(start), end: String(end), step: `${stepFor(rangeSeconds)}s` },
          },
        }),
      );
      const data = res.data as { result?: RangeSeries[] } | undefined;
      return data?.result ?? [];
    },
    enabled,
    placeholderData: keepPreviousData,
    refetchInterval: refreshMs > 0 ? refreshMs : false,
  });
}

/**
 * A range query over the last `rangeSeconds` of one node's series. `refreshMs` (0 = off) re-reads
 * it; the previous data stays on screen while the next arrives.
 */
export function useNodeRangeQuery(
  nodeId: number,
  query: string,
  rangeSeconds: number,
  refreshMs: number,
  enabled: boolean,
): UseQueryResult<RangeSeries[]> {
  return useQuery(rangeQueryOptions(nodeId, query, rangeSeconds, refreshMs, enabled));
}

/** Several nodes' answers to one range query, in the order of the ids asked. */
export interface NodesRange {
  /** Each node's series; [] for a node that has not answered (yet). */
  perNode: RangeSeries[][];
  answered: number;
  failed: number;
  /** The first failure, for the error state. */
  error: Error | null;
  /** Newest answer (ms), 0 when none. */
  updatedAt: number;
  refetchFailed: () => void;
}

// Module-level so TanStack keeps the combined result (and its arrays) until an answer changes.
function combineRanges(results: UseQueryResult<RangeSeries[]>[]): NodesRange {
  const failed = results.filter((r) => r.isError);
  return {
    perNode: results.map((r) => r.data ?? []),
    answered: results.filter((r) => r.data !== undefined).length,
    failed: failed.length,
    error: failed[0]?.error ?? null,
    updatedAt: Math.max(0, ...results.map((r) => r.dataUpdatedAt)),
    refetchFailed: () => failed.forEach((r) => void r.refetch()),
  };
}

/**
 * The same range query on several nodes at once (one request per node, since the server scopes a
 * query to one node's series), e.g. to add up the peers of a channel.
 */
export function useNodesRangeQueries(
  nodeIds: readonly number[],
  query: string,
  rangeSeconds: number,
  refreshMs: number,
  enabled: boolean,
): NodesRange {
  return useQueries({
    queries: nodeIds.map((id) => rangeQueryOptions(id, query, rangeSeconds, refreshMs, enabled)),
    combine: combineRanges,
  });
}

function useMetricsMutation<V, R>(fn: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => qc.invalidateQueries({ queryKey: metricsKeys.all }) });
}

export const useDeployMutation = () =>
  useMetricsMutation((body: DeployBody) => unwrap(api.POST("/metrics/deploy", { body })));
export const useUndeployMutation = () => useMetricsMutation(() => unwrap(api.POST("/metrics/undeploy")));
export const useReloadMutation = () => useMetricsMutation(() => unwrap(api.POST("/metrics/reload")));
/** Stops Prometheus, keeping its settings and data; start brings it back on the same port. */
export const useStopMutation = () => useMetricsMutation(() => unwrap(api.POST("/metrics/stop")));
export const useStartMutation = () => useMetricsMutation(() => unwrap(api.POST("/metrics/start")));
