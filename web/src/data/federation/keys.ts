/** Query keys of the federation resource (identity, connections, a connection's live nodes and metrics). */
export const federationKeys = {
  all: ["federation"] as const,
  identity: () => [...federationKeys.all, "identity"] as const,
  peers: () => [...federationKeys.all, "peers"] as const,
  peerNodes: (nodeId: string) => [...federationKeys.all, "peers", nodeId, "nodes"] as const,
  connectionMetrics: (connectionId: string, query: string) =>
    [...federationKeys.all, "peers", connectionId, "metrics", query] as const,
};
