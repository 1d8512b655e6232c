import { keepPreviousData, useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { pluginKeys } from "@/data/plugins/keys";
import type { ValidateResult } from "@/data/plugins/types";

/**
 * The server's verdict on a plugin's YAML (the editor's inline markers). Keyed by the text, so the
 * answer for an older text never replaces a newer one; the previous answer stays shown meanwhile.
 */
export function usePluginValidateQuery(yaml: string): UseQueryResult<ValidateResult> {
  return useQuery({
    queryKey: pluginKeys.validate(yaml),
    queryFn: ({ signal }) => unwrap(api.POST("/plugins/validate", { body: { yaml }, signal })),
    enabled: yaml.trim() !== "",
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    gcTime: 60_000,
  });
}
