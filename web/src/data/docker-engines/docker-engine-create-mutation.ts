import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { dockerEngineKeys } from "@/data/docker-engines/keys";
import type { CreateDockerEngineBody, DockerEngine } from "@/data/docker-engines/types";

/** POST /docker/engines (admin). The server pings the engine first; a 400 names `host` or `name`. */
export function createDockerEngine(body: CreateDockerEngineBody): Promise<DockerEngine> {
  return unwrap(api.POST("/docker/engines", { body }));
}

/** Registers an engine; the dialog also puts the server's field errors on its fields. */
export function useDockerEngineCreateMutation(): UseMutationResult<DockerEngine, Error, CreateDockerEngineBody> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createDockerEngine,
    onSuccess: () => qc.invalidateQueries({ queryKey: dockerEngineKeys.all }),
  });
}
