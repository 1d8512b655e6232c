import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { unwrap } from "@/api/client";
import { pluginKeys } from "@/data/plugins/keys";
import { pluginApi } from "@/data/plugins/plugin-api";
import type { AvailablePlugins } from "@/data/plugins/types";

/** Plugins the registries offer (the built-in ones included), with any registry's error. */
export function useAvailablePluginsQuery(): UseQueryResult<AvailablePlugins> {
  return useQuery({
    queryKey: pluginKeys.available(),
    queryFn: () => unwrap(pluginApi.GET("/plugins/available")),
  });
}
