import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { API_BASE, api, unwrap } from "@/api/client";
import { toApiError } from "@/api/errors";
import { chaincodeKeys } from "@/data/chaincodes/keys";
import type {
  CallBody,
  CallResult,
  Chaincode,
  ChaincodeDefinition,
  CreateDefinitionBody,
  UpdateDefinitionBody,
} from "@/data/chaincodes/types";

export function useCreateChaincodeMutation(): UseMutationResult<
  Chaincode,
  Error,
  { name: string; network_id: number }
> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body) => (await unwrap(api.POST("/sc/fabric/chaincodes", { body }))).chaincode,
    onSuccess: () => qc.invalidateQueries({ queryKey: chaincodeKeys.all }),
  });
}

export function useDeleteChaincodeMutation(): UseMutationResult<void, Error, number> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id) => {
      await unwrap(api.DELETE("/sc/fabric/chaincodes/{id}", { params: { path: { id } } }));
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: chaincodeKeys.all }),
  });
}

export function useCreateDefinitionMutation(
  chaincodeId: number,
): UseMutationResult<ChaincodeDefinition, Error, CreateDefinitionBody> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body) =>
      (
        await unwrap(
          api.POST("/sc/fabric/chaincodes/{chaincodeId}/definitions", { params: { path: { chaincodeId } }, body }),
        )
      ).definition,
    onSuccess: () => qc.invalidateQueries({ queryKey: chaincodeKeys.all }),
  });
}

export function useUpdateDefinitionMutation(
  definitionId: number,
): UseMutationResult<ChaincodeDefinition, Error, UpdateDefinitionBody> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body) =>
      unwrap(api.PUT("/sc/fabric/definitions/{definitionId}", { params: { path: { definitionId } }, body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: chaincodeKeys.all }),
  });
}

export function useDeleteDefinitionMutation(): UseMutationResult<void, Error, number> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (definitionId) => {
      await unwrap(api.DELETE("/sc/fabric/definitions/{definitionId}", { params: { path: { definitionId } } }));
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: chaincodeKeys.all }),
  });
}

export type LifecycleAction =
  | { action: "install"; peer_ids: number[] }
  | { action: "approve"; peer_id: number }
  | { action: "commit"; peer_id: number }
  | { action: "deploy"; environment_variables?: Record<string, string> }
  | { action: "undeploy" };

/** One lifecycle step of a definition; the server answers with what it did or a named error. */
export function useLifecycleMutation(
  definitionId: number,
): UseMutationResult<Record<string, string>, Error, LifecycleAction> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (a) => {
      const params = { params: { path: { definitionId } } };
      switch (a.action) {
        case "install":
          return unwrap(
            api.POST("/sc/fabric/definitions/{definitionId}/install", { ...params, body: { peer_ids: a.peer_ids } }),
          );
        case "approve":
          return unwrap(
            api.POST("/sc/fabric/definitions/{definitionId}/approve", { ...params, body: { peer_id: a.peer_id } }),
          );
        case "commit":
          return unwrap(
            api.POST("/sc/fabric/definitions/{definitionId}/commit", { ...params, body: { peer_id: a.peer_id } }),
          );
        case "deploy":
          return unwrap(
            api.POST("/sc/fabric/definitions/{definitionId}/deploy", {
              ...params,
              body: a.environment_variables ? { environment_variables: a.environment_variables } : {},
            }),
          );
        case "undeploy":
          return unwrap(api.POST("/sc/fabric/definitions/{definitionId}/undeploy", params));
      }
    },
    onSettled: () => qc.invalidateQueries({ queryKey: chaincodeKeys.all }),
  });
}

/** Uploads a source archive (tar.gz, tar, zip) or an executable as the raw body. */
export async function uploadChaincodeSource(
  definitionId: number,
  file: Blob,
  type: "auto" | "node" | "go" | "executable" = "auto",
): Promise<ChaincodeDefinition> {
  const res = await fetch(`${API_BASE}/sc/fabric/definitions/${definitionId}/source?type=${type}`, {
    method: "POST",
    credentials: "include",
    headers: { "content-type": "application/octet-stream" },
    body: file,
  });
  const text = await res.text();
  const body: unknown = text ? JSON.parse(text) : undefined;
  if (!res.ok) throw toApiError(res.status, body);
  return body as ChaincodeDefinition;
}

/** Invokes (submit + commit) or queries (evaluate) a chaincode function. */
export function callChaincode(chaincodeId: number, kind: "invoke" | "query", body: CallBody): Promise<CallResult> {
  const params = { params: { path: { chaincodeId } }, body };
  return kind === "invoke"
    ? unwrap(api.POST("/sc/fabric/chaincodes/{chaincodeId}/invoke", params))
    : unwrap(api.POST("/sc/fabric/chaincodes/{chaincodeId}/query", params));
}
