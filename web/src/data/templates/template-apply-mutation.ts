import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { templateKeys } from "@/data/templates/keys";

/** POST /templates/{id}/apply: the generated configuration; a 400 names the variable (`variables.name`). */
export function useTemplateApplyMutation(
  id: number,
): UseMutationResult<Record<string, unknown>, Error, Record<string, unknown>> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (variables) =>
      unwrap(api.POST("/templates/{id}/apply", { params: { path: { id } }, body: { template_id: id, variables } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: templateKeys.all }),
    // The dialog shows the server's message (it names the variable) under the form.
    meta: { silent: true },
  });
}
