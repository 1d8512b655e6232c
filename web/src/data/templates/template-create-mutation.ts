import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { templateKeys } from "@/data/templates/keys";
import type { CreateTemplateBody, Template } from "@/data/templates/types";

/** POST /templates; a 400 names the field (`config.fabricPeer.x`, `variables[0].validation.pattern`). */
export function useTemplateCreateMutation(): UseMutationResult<Template, Error, CreateTemplateBody> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body) => unwrap(api.POST("/templates", { body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: templateKeys.all }),
  });
}
