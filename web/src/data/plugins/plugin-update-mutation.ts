import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { pluginKeys } from "@/data/plugins/keys";
import { yamlBody } from "@/data/plugins/plugin-api";
import type { Plugin } from "@/data/plugins/types";

/** Saves a plugin's YAML (metadata.name must stay `name`). Silent: the editor shows the problems. */
export function usePluginUpdateMutation(name: string): UseMutationResult<Plugin, Error, string> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (yaml: string) => unwrap(api.PUT("/plugins/{name}", { params: { path: { name } }, ...yamlBody(yaml) })),
    onSettled: () => qc.invalidateQueries({ queryKey: pluginKeys.all }),
    meta: { silent: true },
  });
}
