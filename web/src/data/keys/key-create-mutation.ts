import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap, type CreateKeyBody, type KeyInfo } from "@/api/client";
import { keyKeys } from "@/data/keys/keys";

export function useKeyCreateMutation(): UseMutationResult<KeyInfo, Error, CreateKeyBody> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateKeyBody) => unwrap(api.POST("/keys", { body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: keyKeys.all }),
  });
}
