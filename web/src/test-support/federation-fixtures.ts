import type { ConnectedPeer } from "@/data/federation/types";
import type { SharedNetwork } from "@/data/sharing/types";

/** Test data shared by the federation screens' tests. */
export const peerB: ConnectedPeer = {
  id: 7,
  node_id: "cl-bbbb",
  peer_endpoint: "http://b.example",
  peer_public_key: "BKEY",
  status: "connected",
  metrics_federation: false,
  peer_grants_metrics: null,
  analytics_enabled: false,
  last_seen_at: null,
  last_error: null,
};
export const peerC: ConnectedPeer = { ...peerB, id: 8, node_id: "cl-cccc", peer_endpoint: "http://c.example" };

export const received: SharedNetwork = {
  id: "share-1",
  direction: "received",
  resourceType: "fabric_network",
  platform: "fabric",
  networkName: "mychannel",
  resourceId: "3",
  connectionId: 7,
  sharedBy: "cl-bbbb (Org2)",
  sharedByNodeId: "cl-bbbb",
  recipients: [],
  status: "pending",
  error: null,
  localNetworkId: null,
  createdAt: "2026-11-25T10:00:00Z",
  dataJson: {},
};

export const sent: SharedNetwork = {
  ...received,
  id: "share-2",
  direction: "sent",
  networkName: "besu-net",
  resourceType: "besu_network",
  platform: "besu",
  recipients: [7, 8],
  status: "sent",
  sharedByNodeId: "cl-aaaa",
};
