import { useMutation, type UseMutationResult } from "@tanstack/react-query";
import { api, unwrap, type ResponseOf } from "@/api/client";

export type ContractTx = ResponseOf<"/nodes/{id}/contracts/deploy", "post", 201>;
export type ContractCallResult = ResponseOf<"/nodes/{id}/contracts/call", "post">;

export interface DeployInput {
  nodeId: number;
  keyId: number;
  bytecode: string;
  abi?: string | undefined;
  args?: unknown[] | undefined;
}
export interface CallInput {
  nodeId: number;
  address: string;
  abi: string;
  functionName: string;
  args?: unknown[] | undefined;
}
export interface SendInput extends CallInput {
  keyId: number;
  value?: string | undefined;
}

/** Deploys a contract through a Besu node, signed by a managed key (POST /nodes/{id}/contracts/deploy). */
export function useContractDeployMutation(): UseMutationResult<ContractTx, Error, DeployInput> {
  return useMutation({
    mutationFn: ({ nodeId, ...body }) =>
      unwrap(api.POST("/nodes/{id}/contracts/deploy", { params: { path: { id: nodeId } }, body })),
  });
}

/** eth_call of a contract function, decoded by the ABI (POST /nodes/{id}/contracts/call). */
export function useContractCallMutation(): UseMutationResult<ContractCallResult, Error, CallInput> {
  return useMutation({
    mutationFn: ({ nodeId, ...body }) =>
      unwrap(api.POST("/nodes/{id}/contracts/call", { params: { path: { id: nodeId } }, body })),
  });
}

/** A transaction calling a contract function, signed by a managed key (POST /nodes/{id}/contracts/send). */
export function useContractSendMutation(): UseMutationResult<ContractTx, Error, SendInput> {
  return useMutation({
    mutationFn: ({ nodeId, ...body }) =>
      unwrap(api.POST("/nodes/{id}/contracts/send", { params: { path: { id: nodeId } }, body })),
  });
}
