import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { pluginKeys } from "@/data/plugins/keys";
import type { AvailablePlugins } from "@/data/plugins/types";

/** Plugins the registries offer (the built-in ones included), with any registry's error. */
export function useAvailablePluginsQuery(): UseQueryResult<AvailablePlugins> {
  return useQuery({
    queryKey: pluginKeys.available(),
    queryFn: () => unwrap(api.GET("/plugins/available")),
  });
}
