import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { templateKeys } from "@/data/templates/keys";

/** DELETE /templates/{id} (the server keeps it as an inactive row). */
export function useTemplateDeleteMutation(): UseMutationResult<void, Error, number> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id) => unwrap(api.DELETE("/templates/{id}", { params: { path: { id } } })).then(() => undefined),
    onSuccess: () => qc.invalidateQueries({ queryKey: templateKeys.all }),
  });
}
