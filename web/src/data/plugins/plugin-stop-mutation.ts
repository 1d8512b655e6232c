import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { pluginKeys } from "@/data/plugins/keys";
import type { DeploymentStatus } from "@/data/plugins/types";

/** Stops a deployed plugin (its processes end and its key files are removed). */
export function usePluginStopMutation(): UseMutationResult<DeploymentStatus, Error, string> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => unwrap(api.POST("/plugins/{name}/stop", { params: { path: { name } } })),
    onSuccess: (status, name) => qc.setQueryData(pluginKeys.status(name), status),
    onSettled: () => qc.invalidateQueries({ queryKey: pluginKeys.all }),
  });
}
