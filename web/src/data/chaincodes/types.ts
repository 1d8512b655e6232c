import type { paths } from "@/api/schema";
import type { ResponseOf } from "@/api/client";

export type Chaincode = ResponseOf<"/sc/fabric/chaincodes/{id}", "get">;
export type ChaincodeDefinition = ResponseOf<
  "/sc/fabric/chaincodes/{chaincodeId}/definitions",
  "get"
>["definitions"][number];
export type DefinitionStatus = ResponseOf<"/sc/fabric/definitions/{definitionId}/status", "get">;
export type DefinitionDockerInfo = ResponseOf<"/sc/fabric/definitions/{definitionId}/docker-info", "get">;
export type DefinitionEvent = ResponseOf<"/sc/fabric/definitions/{definitionId}/timeline", "get">[number];
export type CallResult = ResponseOf<"/sc/fabric/chaincodes/{chaincodeId}/invoke", "post">;
export type DeployStatus = ChaincodeDefinition["deploy_status"];
export type CommittedChaincodes = ResponseOf<"/networks/fabric/{id}/chaincodes/committed", "get">;
export type CommittedChaincode = CommittedChaincodes["chaincodes"][number];

type Body<P extends keyof paths, M extends "post" | "put"> =
  NonNullable<paths[P][M]> extends { requestBody?: { content: { "application/json": infer J } } } ? J : never;

export type CreateDefinitionBody = Body<"/sc/fabric/chaincodes/{chaincodeId}/definitions", "post">;
export type UpdateDefinitionBody = Body<"/sc/fabric/definitions/{definitionId}", "put">;
export type CallBody = Body<"/sc/fabric/chaincodes/{chaincodeId}/invoke", "post">;
export type Collection = NonNullable<CreateDefinitionBody["collections"]>[number];
