import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { unwrap } from "@/api/client";
import { pluginKeys } from "@/data/plugins/keys";
import { pluginApi } from "@/data/plugins/plugin-api";

/** Deploys a stopped plugin again with the values it was last deployed with. */
export function usePluginResumeMutation(): UseMutationResult<{ status: string; message?: string }, Error, string> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => unwrap(pluginApi.POST("/plugins/{name}/resume", { params: { path: { name } } })),
    onSettled: () => qc.invalidateQueries({ queryKey: pluginKeys.all }),
  });
}
