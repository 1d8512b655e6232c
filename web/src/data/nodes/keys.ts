import type { NodeStatus } from "@/api/client";

export interface NodeFilters {
  page: number;
  limit: number;
  platform?: "FABRIC" | "BESU" | undefined;
  status?: NodeStatus | undefined;
  name?: string | undefined;
  networkId?: number | undefined;
}

export const nodeKeys = {
  all: ["nodes"] as const,
  list: (f: NodeFilters) => [...nodeKeys.all, "list", f] as const,
  detail: (id: number) => [...nodeKeys.all, "detail", id] as const,
  events: (id: number, page: number) => [...nodeKeys.all, "events", id, page] as const,
  health: (id: number) => [...nodeKeys.all, "health", id] as const,
  healthHistory: (id: number) => [...nodeKeys.all, "health-history", id] as const,
  defaults: (kind: string, mode?: string) => [...nodeKeys.all, "defaults", kind, ...(mode ? [mode] : [])] as const,
  counts: () => [...nodeKeys.all, "counts"] as const,
  rpc: (id: number, what: string, ...args: unknown[]) => [...nodeKeys.all, "rpc", id, what, ...args] as const,
  logStats: (id: number) => [...nodeKeys.all, "log-stats", id] as const,
  logTail: (id: number, lines: number) => [...nodeKeys.all, "log-tail", id, lines] as const,
  logSearch: (id: number, pattern: string, ignoreCase: boolean) =>
    [...nodeKeys.all, "log-search", id, pattern, ignoreCase] as const,
  logRange: (id: number, start: number, end: number) => [...nodeKeys.all, "log-range", id, start, end] as const,
};
