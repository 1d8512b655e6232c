import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap, type Setting, type SettingConfig } from "@/api/client";
import { federationKeys } from "@/data/federation/keys";
import { settingsKeys } from "@/data/settings/keys";

/** Saves the whole settings document; the federation identity is refetched, as its endpoint may have changed. */
export function useSettingsUpdateMutation(): UseMutationResult<Setting, Error, SettingConfig> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (config: SettingConfig) => unwrap(api.POST("/settings", { body: { config } })),
    onSuccess: async (data) => {
      qc.setQueryData(settingsKeys.all, data);
      await qc.invalidateQueries({ queryKey: federationKeys.identity() });
    },
  });
}
