import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap, type KeyProvider } from "@/api/client";
import type { paths } from "@/api/schema";
import { keyProviderKeys } from "@/data/key-providers/keys";

/** POST /key-providers: DATABASE without settings, VAULT with `config.vault`, AWS_KMS with `config.awsKms`. */
export type KeyProviderCreateVars = NonNullable<
  paths["/key-providers"]["post"]
>["requestBody"]["content"]["application/json"];

/** Creates a provider; a 400 names the field (`config.vault.token: …`), a 502 the unreachable backend. */
export function createKeyProvider(body: KeyProviderCreateVars): Promise<KeyProvider> {
  return unwrap(api.POST("/key-providers", { body }));
}

export function useKeyProviderCreateMutation(): UseMutationResult<KeyProvider, Error, KeyProviderCreateVars> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createKeyProvider,
    onSuccess: () => qc.invalidateQueries({ queryKey: keyProviderKeys.all }),
  });
}
