import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { dockerEngineKeys } from "@/data/docker-engines/keys";

/** DELETE /docker/engines/{id} (admin); the server refuses (409) while a node runs on the engine. */
export function deleteDockerEngine(id: number): Promise<void> {
  return unwrap(api.DELETE("/docker/engines/{id}", { params: { path: { id } } })).then(() => undefined);
}

export function useDockerEngineDeleteMutation(): UseMutationResult<void, Error, number> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteDockerEngine,
    onSuccess: () => qc.invalidateQueries({ queryKey: dockerEngineKeys.all }),
  });
}
