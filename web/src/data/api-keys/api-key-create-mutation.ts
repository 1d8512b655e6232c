import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap, type APIKey, type Role } from "@/api/client";
import { apiKeyKeys } from "@/data/api-keys/keys";

export interface ApiKeyCreateVars {
  name: string;
  description?: string;
  role?: Role;
  expires_in?: string;
}

/** `POST /api-keys`: the new key and its secret, which the server returns only this once. */
export function createApiKey(body: ApiKeyCreateVars): Promise<{ api_key: APIKey; key: string }> {
  return unwrap(api.POST("/api-keys", { body }));
}

export function useApiKeyCreateMutation(): UseMutationResult<
  { api_key: APIKey; key: string },
  Error,
  ApiKeyCreateVars
> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: () => qc.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}
