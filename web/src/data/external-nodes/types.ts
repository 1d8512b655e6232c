import type { ResponseOf } from "@/api/client";

export type ExternalOrganization = ResponseOf<"/external-nodes/fabric-organizations", "get">[number];
export type ExternalFabricPeer = ResponseOf<"/external-nodes/fabric-peers", "get">[number];
export type ExternalFabricOrderer = ResponseOf<"/external-nodes/fabric-orderers", "get">[number];
export type ExternalBesuNode = ResponseOf<"/external-nodes/besu-nodes", "get">[number];

/** The four kinds of external record, as named in the URLs below /external-nodes. */
export type ExternalKind = "fabric-organizations" | "fabric-peers" | "fabric-orderers" | "besu-nodes";
