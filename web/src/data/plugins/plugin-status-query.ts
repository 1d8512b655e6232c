import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { pluginKeys } from "@/data/plugins/keys";
import { MOVING_STATES } from "@/data/plugins/plugin-api";
import type { DeploymentStatus } from "@/data/plugins/types";

/**
 * Where a plugin's deployment stands. Polled every 2 s while it is deploying or stopping, and every
 * 5 s while running (a process that dies turns it to error).
 */
export function usePluginStatusQuery(name: string): UseQueryResult<DeploymentStatus> {
  return useQuery({
    queryKey: pluginKeys.status(name),
    queryFn: () => unwrap(api.GET("/plugins/{name}/deployment-status", { params: { path: { name } } })),
    enabled: name !== "",
    refetchInterval: (q) => {
      const s = q.state.data?.status ?? "";
      if (MOVING_STATES.includes(s)) return 2000;
      return s === "running" ? 5000 : false;
    },
  });
}
