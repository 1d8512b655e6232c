import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { pluginKeys } from "@/data/plugins/keys";
import type { PluginService } from "@/data/plugins/types";

/** The plugin's processes (or compose services); `poll` refreshes them every 5 s (deploying or running). */
export function usePluginServicesQuery(name: string, poll: boolean): UseQueryResult<PluginService[]> {
  return useQuery({
    queryKey: pluginKeys.services(name),
    queryFn: () => unwrap(api.GET("/plugins/{name}/services", { params: { path: { name } } })),
    enabled: name !== "",
    refetchInterval: poll ? 5000 : false,
  });
}
