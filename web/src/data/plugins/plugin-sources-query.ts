import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { pluginKeys } from "@/data/plugins/keys";
import type { SourceOptions, XSource } from "@/data/plugins/types";

/** The choices of an `x-source` parameter (peers, keys, organizations, networks, Besu nodes). */
export function usePluginSourcesQuery(type: XSource): UseQueryResult<SourceOptions> {
  return useQuery({
    queryKey: pluginKeys.sources(type),
    queryFn: () => unwrap(api.GET("/plugins/sources/{type}", { params: { path: { type } } })),
  });
}
