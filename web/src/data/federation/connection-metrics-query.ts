import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { federationKeys } from "@/data/federation/keys";
import type { ConnectionQueryResult } from "@/data/federation/types";

/** How often the other console's targets are read again. */
export const CONNECTION_METRICS_REFRESH_MS = 30_000;

/**
 * An instant PromQL query run on a connected console's metrics (it answers 403 until it grants us
 * access, 502 when it can't be reached). `connectionId` is the connection's row id or node id.
 */
export function useConnectionMetricsQuery(
  connectionId: string,
  query: string,
  enabled = true,
): UseQueryResult<ConnectionQueryResult> {
  return useQuery({
    queryKey: federationKeys.connectionMetrics(connectionId, query),
    queryFn: () =>
      unwrap(
        api.POST("/metrics/connection/{id}/query", {
          params: { path: { id: connectionId } },
          body: { query },
        }),
      ),
    enabled,
    refetchInterval: CONNECTION_METRICS_REFRESH_MS,
  });
}
