import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { templateKeys } from "@/data/templates/keys";
import type { Template, TemplatePlatform } from "@/data/templates/types";

/** GET /templates/search: active templates of a platform whose name or description has `query`. */
export function fetchTemplates(filter: {
  platform?: TemplatePlatform | undefined;
  query?: string | undefined;
}): Promise<Template[]> {
  const query = {
    ...(filter.platform ? { platform: filter.platform } : {}),
    ...(filter.query ? { query: filter.query } : {}),
  };
  return unwrap(api.GET("/templates/search", { params: { query } }));
}

export function useTemplatesQuery(filter: {
  platform?: TemplatePlatform | undefined;
  query?: string | undefined;
}): UseQueryResult<Template[]> {
  return useQuery({ queryKey: templateKeys.list(filter), queryFn: () => fetchTemplates(filter) });
}
