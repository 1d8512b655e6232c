import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { templateKeys } from "@/data/templates/keys";
import type { ImportTemplateBody, Template } from "@/data/templates/types";

/** POST /templates/import with an exported document; a 400 names the field of the document. */
export function useTemplateImportMutation(): UseMutationResult<Template, Error, ImportTemplateBody> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body) => unwrap(api.POST("/templates/import", { body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: templateKeys.all }),
  });
}
