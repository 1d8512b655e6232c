/** Query keys of the federation resource (identity, connections and a connection's live nodes). */
export const federationKeys = {
  all: ["federation"] as const,
  identity: () => [...federationKeys.all, "identity"] as const,
  peers: () => [...federationKeys.all, "peers"] as const,
  peerNodes: (nodeId: string) => [...federationKeys.all, "peers", nodeId, "nodes"] as const,
};
