import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { pluginKeys } from "@/data/plugins/keys";
import type { Plugin } from "@/data/plugins/types";

/** One plugin: its document, deployment status and the YAML as saved. */
export function usePluginQuery(name: string): UseQueryResult<Plugin> {
  return useQuery({
    queryKey: pluginKeys.detail(name),
    queryFn: () => unwrap(api.GET("/plugins/{name}", { params: { path: { name } } })),
    enabled: name !== "",
  });
}
