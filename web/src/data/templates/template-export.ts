import { api, unwrap } from "@/api/client";
import type { TemplateExport } from "@/data/templates/types";

/** GET /templates/{id}/export: the document POST /templates/import reads. */
export function fetchTemplateExport(id: number): Promise<TemplateExport> {
  return unwrap(api.GET("/templates/{id}/export", { params: { path: { id } } }));
}
