import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keyProviderKeys } from "@/data/key-providers/keys";

/** Removes a provider; the server refuses (409) while it holds keys or is the default. */
export function useKeyProviderDeleteMutation(): UseMutationResult<void, Error, number> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await unwrap(api.DELETE("/key-providers/{id}", { params: { path: { id } } }));
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: keyProviderKeys.all }),
  });
}
