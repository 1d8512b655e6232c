import type { paths } from "@/api/schema";
import type { ResponseOf } from "@/api/client";

export type FabricNetwork = ResponseOf<"/networks/fabric/{id}", "get">;
export type FabricNetworkPage = ResponseOf<"/networks/fabric", "get">;
export type FabricNetworkNode = ResponseOf<"/networks/fabric/{id}/nodes", "get">["nodes"][number];
export type FabricJoinStatus = FabricNetworkNode["status"];
export type FabricChannelInfo = ResponseOf<"/networks/fabric/{id}/info", "get">;
export type FabricBlockPage = ResponseOf<"/networks/fabric/{id}/blocks", "get">;
export type FabricBlock = FabricBlockPage["blocks"][number];
export type FabricTransaction = FabricBlock["transactions"][number];
export type FabricChannelConfig = ResponseOf<"/networks/fabric/{id}/current-channel-config", "get">;
export type FabricNetworkMap = ResponseOf<"/networks/fabric/{id}/map", "get">;
export type FabricUpdateConfigResult = ResponseOf<"/networks/fabric/{id}/update-config", "post">;

type Body<P extends keyof paths> =
  NonNullable<paths[P]["post"]> extends { requestBody?: { content: { "application/json": infer J } } } ? J : never;

export type CreateFabricNetworkBody = Body<"/networks/fabric">;
export type FabricUpdateConfigBody = Body<"/networks/fabric/{id}/update-config">;
export type FabricConfigOperation = FabricUpdateConfigBody["operations"][number];
export type FabricAnchorPeersBody = Body<"/networks/fabric/{id}/anchor-peers">;
export type ImportFabricNetworkBody = Body<"/networks/fabric/import">;
export type ImportFabricNetworkWithOrgBody = Body<"/networks/fabric/import-with-org">;
export type ImportNetworkResult = ResponseOf<"/networks/fabric/import", "post">;
