import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { pluginKeys } from "@/data/plugins/keys";
import type { ResumeResult } from "@/data/plugins/types";

/** Deploys a stopped plugin again with the values it was last deployed with. */
export function usePluginResumeMutation(): UseMutationResult<ResumeResult, Error, string> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => unwrap(api.POST("/plugins/{name}/resume", { params: { path: { name } } })),
    onSettled: () => qc.invalidateQueries({ queryKey: pluginKeys.all }),
  });
}
