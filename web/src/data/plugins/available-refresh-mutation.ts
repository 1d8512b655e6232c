import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { pluginKeys } from "@/data/plugins/keys";
import type { AvailablePlugins } from "@/data/plugins/types";

/** Reads the registries again; the answer replaces the cached list. */
export function useAvailableRefreshMutation(): UseMutationResult<AvailablePlugins, Error, void> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST("/plugins/available/refresh")),
    onSuccess: (data) => qc.setQueryData(pluginKeys.available(), data),
  });
}
