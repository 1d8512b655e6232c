import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { templateKeys } from "@/data/templates/keys";

/** POST /templates/{id}/set-default: the only default of its platform and node type. */
export function useTemplateSetDefaultMutation(): UseMutationResult<Record<string, string>, Error, number> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id) => unwrap(api.POST("/templates/{id}/set-default", { params: { path: { id } } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: templateKeys.all }),
  });
}
