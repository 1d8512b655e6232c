import type { ResponseOf } from "@/api/client";

/** This console's federation identity: node id, public key and endpoint (null until one is set). */
export type FederationIdentity = ResponseOf<"/node/identity", "get">;
/** One known console (revoked ones included) with its live status. */
export type ConnectedPeer = ResponseOf<"/node/connected-peers", "get">["connected_peers"][number];
export type ConnectionStatus = ConnectedPeer["status"];
/** A connected console's organizations and nodes, fetched live (ids are its own). */
export type PeerNodes = ResponseOf<"/node/connected-peers/{peer_id}/nodes", "get">;
export type SyncResult = ResponseOf<"/node/sync-external-nodes", "post">;
export type AcceptResult = ResponseOf<"/node/accept-invitation", "post">;
/** Prometheus's answer to a query run on a connected console's metrics (same shape as a node query's). */
export type ConnectionQueryResult = ResponseOf<"/metrics/connection/{id}/query", "post">;
