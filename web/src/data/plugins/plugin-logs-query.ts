import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { pluginKeys } from "@/data/plugins/keys";

/** The last `tail` lines of one service's log, as text. Refreshed on demand. */
export function usePluginLogsQuery(name: string, service: string, tail = 200): UseQueryResult<string> {
  return useQuery({
    queryKey: pluginKeys.logs(name, service, tail),
    // An empty log comes back with no body at all, which openapi-fetch reads as undefined.
    queryFn: async () =>
      (await unwrap(
        api.GET("/plugins/{name}/services/{service}/logs", {
          params: { path: { name, service }, query: { tail } },
          parseAs: "text",
        }),
      )) ?? "",
    enabled: name !== "" && service !== "",
  });
}
