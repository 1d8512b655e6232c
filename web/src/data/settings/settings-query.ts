import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap, type Setting } from "@/api/client";
import { settingsKeys } from "@/data/settings/keys";

export function useSettingsQuery(): UseQueryResult<Setting> {
  return useQuery({ queryKey: settingsKeys.all, queryFn: () => unwrap(api.GET("/settings")) });
}
