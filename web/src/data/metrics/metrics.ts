import { keepPreviousData, useMutation, useQuery, useQueryClient, type UseQueryResult } from "@tanstack/react-query";
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
  return useQuery({
    queryKey: metricsKeys.range(nodeId, query, rangeSeconds),
    queryFn: async () => {
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

function useMetricsMutation<V, R>(fn: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => qc.invalidateQueries({ queryKey: metricsKeys.all }) });
}

export const useDeployMutation = () =>
  useMetricsMutation((body: DeployBody) => unwrap(api.POST("/metrics/deploy", { body })));
export const useUndeployMutation = () => useMetricsMutation(() => unwrap(api.POST("/metrics/undeploy")));
export const useReloadMutation = () => useMetricsMutation(() => unwrap(api.POST("/metrics/reload")));
