import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { templateKeys } from "@/data/templates/keys";
import type { Template } from "@/data/templates/types";

/** GET /templates/{id}. */
export function fetchTemplate(id: number): Promise<Template> {
  return unwrap(api.GET("/templates/{id}", { params: { path: { id } } }));
}

export function useTemplateQuery(id: number): UseQueryResult<Template> {
  return useQuery({ queryKey: templateKeys.detail(id), queryFn: () => fetchTemplate(id) });
}
