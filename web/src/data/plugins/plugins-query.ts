import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { pluginKeys } from "@/data/plugins/keys";
import { MOVING_STATES } from "@/data/plugins/plugin-api";
import type { Plugin } from "@/data/plugins/types";

/** Installed plugins with their deployment status; polled every 3 s while one is deploying or stopping. */
export function usePluginsQuery(): UseQueryResult<Plugin[]> {
  return useQuery({
    queryKey: pluginKeys.list(),
    queryFn: () => unwrap(api.GET("/plugins")),
    refetchInterval: (q) =>
      q.state.data?.some((p) => MOVING_STATES.includes(p.deploymentStatus?.status ?? "")) ? 3000 : false,
  });
}
