import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap, type KeyProvider } from "@/api/client";
import { keyProviderKeys } from "@/data/key-providers/keys";

export interface KeyProviderCreateVars {
  name: string;
  type: "DATABASE";
  isDefault?: number;
}

export function useKeyProviderCreateMutation(): UseMutationResult<KeyProvider, Error, KeyProviderCreateVars> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: KeyProviderCreateVars) => unwrap(api.POST("/key-providers", { body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: keyProviderKeys.all }),
  });
}
