import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { pluginKeys } from "@/data/plugins/keys";

/**
 * Deletes a plugin (the server stops it first). Its detail queries (status, services, logs) are
 * dropped rather than refetched: they would answer 404 while its page is still open.
 */
export function usePluginDeleteMutation(): UseMutationResult<void, Error, string> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => {
      await unwrap(api.DELETE("/plugins/{name}", { params: { path: { name } } }));
    },
    onSuccess: async (_r, name) => {
      qc.removeQueries({ queryKey: pluginKeys.detail(name) });
      await Promise.all([
        qc.invalidateQueries({ queryKey: pluginKeys.list() }),
        qc.invalidateQueries({ queryKey: pluginKeys.available() }),
      ]);
    },
  });
}
