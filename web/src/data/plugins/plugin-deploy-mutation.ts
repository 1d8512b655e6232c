import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { pluginKeys } from "@/data/plugins/keys";
import type { DeploymentStatus } from "@/data/plugins/types";

export interface PluginDeployVars {
  name: string;
  values: Record<string, unknown>;
}

/** Deploys a plugin with parameter values. Silent: the form puts a 400 next to the field it names. */
export function usePluginDeployMutation(): UseMutationResult<DeploymentStatus, Error, PluginDeployVars> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ name, values }: PluginDeployVars) =>
      unwrap(api.POST("/plugins/{name}/deploy", { params: { path: { name } }, body: values })),
    onSuccess: (status, { name }) => qc.setQueryData(pluginKeys.status(name), status),
    onSettled: () => qc.invalidateQueries({ queryKey: pluginKeys.all }),
    meta: { silent: true },
  });
}
