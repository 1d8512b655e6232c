import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { externalNodeKeys } from "@/data/external-nodes/keys";
import type { ExternalKind } from "@/data/external-nodes/types";

async function remove(kind: ExternalKind, id: number): Promise<void> {
  const params = { params: { path: { id } } };
  switch (kind) {
    case "fabric-organizations":
      await unwrap(api.DELETE("/external-nodes/fabric-organizations/{id}", params));
      return;
    case "fabric-peers":
      await unwrap(api.DELETE("/external-nodes/fabric-peers/{id}", params));
      return;
    case "fabric-orderers":
      await unwrap(api.DELETE("/external-nodes/fabric-orderers/{id}", params));
      return;
    case "besu-nodes":
      await unwrap(api.DELETE("/external-nodes/besu-nodes/{id}", params));
      return;
  }
}

/** Deletes one external record of `kind` (a later sync brings it back if its console still has it). */
export function useExternalNodeDeleteMutation(kind: ExternalKind): UseMutationResult<void, Error, number> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => remove(kind, id),
    onSuccess: () => qc.invalidateQueries({ queryKey: externalNodeKeys.list(kind) }),
  });
}
