import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap, type APIKey, type Role } from "@/api/client";
import { apiKeyKeys } from "@/data/api-keys/keys";

export interface ApiKeyCreateVars {
  name: string;
  description?: string;
  role?: Role;
  expires_in?: string;
}

export function useApiKeyCreateMutation(): UseMutationResult<
  { api_key: APIKey; key: string },
  Error,
  ApiKeyCreateVars
> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiKeyCreateVars) => unwrap(api.POST("/api-keys", { body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}
