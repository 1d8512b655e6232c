import { keepPreviousData, useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap, type ResponseOf } from "@/api/client";
import { nodeKeys } from "@/data/nodes/keys";

export type LogStats = ResponseOf<"/nodes/{id}/logs/stats", "get">["data"];
export type LogEntry = ResponseOf<"/nodes/{id}/logs/filter", "get">["data"][number];
export type LogRange = ResponseOf<"/nodes/{id}/logs/range", "get">["data"];
export type LogTail = ResponseOf<"/nodes/{id}/logs/tail", "get">["data"];

/**
 * The last `lines` of a node's log (`logs/tail`). Under the node keys, so every node event refetches
 * it; `pollMs` keeps it moving between events (a restarting node writes without changing state).
 */
export function useNodeLogTailQuery(id: number, lines: number, pollMs: number | false): UseQueryResult<LogTail> {
  return useQuery({
    queryKey: nodeKeys.logTail(id, lines),
    queryFn: async () =>
      (await unwrap(api.GET("/nodes/{id}/logs/tail", { params: { path: { id }, query: { lines } } }))).data,
    refetchInterval: pollMs,
    placeholderData: keepPreviousData,
  });
}

/** Size, line count and lines per level of a node's log; refreshed while shown, as the file grows. */
export function useNodeLogStatsQuery(id: number): UseQueryResult<LogStats> {
  return useQuery({
    queryKey: nodeKeys.logStats(id),
    queryFn: async () => (await unwrap(api.GET("/nodes/{id}/logs/stats", { params: { path: { id } } }))).data,
    refetchInterval: 10_000,
  });
}

/**
 * The lines of a node's log that match an RE2 pattern (Go's regexp syntax, as upstream), searched by the
 * server over the whole file. A bad pattern is the server's 400 naming `pattern`. Disabled until asked.
 */
export function useNodeLogSearchQuery(
  id: number,
  search: { pattern: string; ignoreCase: boolean } | null,
): UseQueryResult<LogEntry[]> {
  return useQuery({
    queryKey: nodeKeys.logSearch(id, search?.pattern ?? "", search?.ignoreCase ?? false),
    queryFn: async () =>
      (
        await unwrap(
          api.GET("/nodes/{id}/logs/filter", {
            params: {
              path: { id },
              query: { pattern: search!.pattern, ...(search!.ignoreCase ? { ignoreCase: "true" as const } : {}) },
            },
          }),
        )
      ).data,
    enabled: search !== null,
    retry: false,
  });
}

/** Lines start..end of a node's log (a search match with the lines around it). */
export function useNodeLogRangeQuery(
  id: number,
  range: { start: number; end: number } | null,
): UseQueryResult<LogRange> {
  return useQuery({
    queryKey: nodeKeys.logRange(id, range?.start ?? 0, range?.end ?? 0),
    queryFn: async () =>
      (
        await unwrap(
          api.GET("/nodes/{id}/logs/range", {
            params: { path: { id }, query: { start: range!.start, end: range!.end } },
          }),
        )
      ).data,
    enabled: range !== null,
    placeholderData: keepPreviousData,
  });
}
