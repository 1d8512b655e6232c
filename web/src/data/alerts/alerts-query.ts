import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap, type Alert } from "@/api/client";
import { alertsKeys } from "@/data/alerts/keys";

/** The alert engine's states; refreshed every 30 s, the server's default evaluation interval. */
export function useAlertsQuery(): UseQueryResult<Alert[]> {
  return useQuery({ queryKey: alertsKeys.all, queryFn: () => unwrap(api.GET("/alerts")), refetchInterval: 30_000 });
}
