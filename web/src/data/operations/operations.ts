import { useQuery, useQueryClient, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap, type ResponseOf } from "@/api/client";
import { useLiveEvent } from "@/app/notifications/NotificationsProvider";

type ListResponse = ResponseOf<"/operations", "get">;
export type Operation = ListResponse["operations"][number];

/** Which operations a screen follows: one resource's (`chaincode_project:3`) or one kind's (`backup`). */
export interface OperationFilter {
  resource?: string;
  kind?: string;
}

/** The list with the difference between the server's clock and this browser's, for elapsed times. */
export interface OperationList {
  operations: Operation[];
  /** Server clock minus browser clock, in ms (0 when they agree). */
  skewMs: number;
}

export const operationKeys = {
  all: ["operations"] as const,
  list: (f: OperationFilter) => [...operationKeys.all, "list", f.resource ?? "", f.kind ?? ""] as const,
};

/** Whether `op` belongs in a list read with filter `f` (the server's rules, for live updates). */
export function matchesFilter(op: Operation, f: OperationFilter): boolean {
  if (f.resource !== undefined && op.resource !== f.resource) return false;
  if (f.kind === undefined) return true;
  return f.kind.endsWith(".") ? op.kind.startsWith(f.kind) : op.kind === f.kind;
}

/**
 * Server clock minus browser clock, from one request: the server's time against the middle of the
 * round trip. Under a few seconds it is taken as 0: the request's own delay makes smaller estimates
 * noise, and a correction by noise would make a reloaded page's elapsed time jump back.
 */
export function clockSkew(serverMs: number, sentMs: number, receivedMs: number): number {
  const skew = serverMs - (sentMs + receivedMs) / 2;
  return Math.abs(skew) < 3000 ? 0 : Math.round(skew);
}

/** `list` with `op` put in (replacing its older state), newest first. */
export function upsertOperation(list: Operation[], op: Operation): Operation[] {
  const rest = list.filter((o) => o.id !== op.id);
  return [op, ...rest].sort((a, b) => b.startedAt.localeCompare(a.startedAt));
}

/**
 * Running and recently finished operations, read once (what a reloaded page needs: the current
 * phase and the real start) and then kept current by `operation.progress` websocket events.
 */
export function useOperationsQuery(filter: OperationFilter): UseQueryResult<OperationList> {
  const qc = useQueryClient();
  const key = operationKeys.list(filter);
  useLiveEvent("operation.progress", (e) => {
    const op = e.data as Operation;
    if (!matchesFilter(op, filter)) return;
    qc.setQueryData<OperationList>(key, (cur) =>
      cur ? { ...cur, operations: upsertOperation(cur.operations, op) } : { operations: [op], skewMs: 0 },
    );
  });
  return useQuery({
    queryKey: key,
    queryFn: async () => {
      const query: { resource?: string; kind?: string } = {};
      if (filter.resource) query.resource = filter.resource;
      if (filter.kind) query.kind = filter.kind;
      const sent = Date.now();
      const r = await unwrap(api.GET("/operations", { params: { query } }));
      return { operations: r.operations, skewMs: clockSkew(Date.parse(r.serverTime), sent, Date.now()) };
    },
    // Events keep it current; a slow read while something runs covers events missed by a reconnect.
    refetchInterval: (q) => (q.state.data?.operations.some((o) => o.status === "running") ? 15_000 : false),
  });
}
