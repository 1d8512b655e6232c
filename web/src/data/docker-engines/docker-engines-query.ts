import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { dockerEngineKeys } from "@/data/docker-engines/keys";
import type { DockerEngine } from "@/data/docker-engines/types";

/** GET /docker/engines: every engine, each pinged by the server on this request (so status is current). */
export function fetchDockerEngines(): Promise<DockerEngine[]> {
  return unwrap(api.GET("/docker/engines")).then((r) => r.engines);
}

/** The engines, for the settings page and the node form's Engine select; `enabled` false skips the ping. */
export function useDockerEnginesQuery(enabled = true): UseQueryResult<DockerEngine[]> {
  return useQuery({ queryKey: dockerEngineKeys.list(), queryFn: fetchDockerEngines, enabled });
}
