import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap, type Setting, type SettingConfig } from "@/api/client";
import { settingsKeys } from "@/data/settings/keys";

export function useSettingsUpdateMutation(): UseMutationResult<Setting, Error, SettingConfig> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (config: SettingConfig) => unwrap(api.POST("/settings", { body: { config } })),
    onSuccess: (data) => qc.setQueryData(settingsKeys.all, data),
  });
}
