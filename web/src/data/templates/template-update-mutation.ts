import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { templateKeys } from "@/data/templates/keys";
import type { Template, UpdateTemplateBody } from "@/data/templates/types";

/** PUT /templates/{id}: new content; platform and node type stay. */
export function useTemplateUpdateMutation(id: number): UseMutationResult<Template, Error, UpdateTemplateBody> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body) => unwrap(api.PUT("/templates/{id}", { params: { path: { id } }, body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: templateKeys.all }),
  });
}
