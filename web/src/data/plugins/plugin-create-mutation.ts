import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { pluginKeys } from "@/data/plugins/keys";
import { yamlBody } from "@/data/plugins/plugin-api";
import type { Plugin } from "@/data/plugins/types";

/**
 * Installs a plugin from its YAML (the editor, or an Install from the available list). Silent: the
 * editor shows a 400's problems as markers, and the list toasts itself.
 */
export function usePluginCreateMutation(): UseMutationResult<Plugin, Error, string> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (yaml: string) => unwrap(api.POST("/plugins", yamlBody(yaml))),
    onSettled: () => qc.invalidateQueries({ queryKey: pluginKeys.all }),
    meta: { silent: true },
  });
}
