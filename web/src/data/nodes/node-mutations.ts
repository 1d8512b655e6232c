import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap, type CreateNodeBody, type NodeInfo, type UpdateNodeBody } from "@/api/client";
import { forgetDeleted } from "@/data/forget-deleted";
import { nodeKeys } from "@/data/nodes/keys";

export type NodeAction = "start" | "stop" | "restart";

function callAction(id: number, action: NodeAction | "renew"): Promise<unknown> {
  const params = { params: { path: { id } } };
  switch (action) {
    case "start":
      return unwrap(api.POST("/nodes/{id}/start", params));
    case "stop":
      return unwrap(api.POST("/nodes/{id}/stop", params));
    case "restart":
      return unwrap(api.POST("/nodes/{id}/restart", params));
    case "renew":
      return unwrap(api.POST("/nodes/{id}/certificates/renew", params));
  }
}

/** Start, stop or restart a node, or renew its certificates; refreshes every node query after. */
export function useNodeActionMutation(): UseMutationResult<
  unknown,
  Error,
  { id: number; action: NodeAction | "renew" }
> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }) => callAction(id, action),
    onSettled: () => qc.invalidateQueries({ queryKey: nodeKeys.all }),
  });
}

export interface NodeCreateVars {
  body: CreateNodeBody;
  start?: boolean;
}

/** POST /nodes (started unless `start` is false). */
export function createNode({ body, start = true }: NodeCreateVars): Promise<NodeInfo> {
  return unwrap(api.POST("/nodes", { params: { query: { start: start ? "true" : "false" } }, body }));
}

export function useNodeCreateMutation(silent = false): UseMutationResult<NodeInfo, Error, NodeCreateVars> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createNode,
    onSuccess: () => qc.invalidateQueries({ queryKey: nodeKeys.all }),
    meta: { silent },
  });
}

export function useNodeUpdateMutation(): UseMutationResult<NodeInfo, Error, { id: number; body: UpdateNodeBody }> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }) => unwrap(api.PUT("/nodes/{id}", { params: { path: { id } }, body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: nodeKeys.all }),
  });
}

export function useNodeDeleteMutation(): UseMutationResult<void, Error, number> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await unwrap(api.DELETE("/nodes/{id}", { params: { path: { id } } }));
    },
    onSuccess: (_d, id) => forgetDeleted(qc, nodeKeys.detail(id), nodeKeys.all),
  });
}
