// Local types from the design (the sharing contract, with the field shapes of the fed-sharing
// branch's schemas): they stand in until /pro/sharing, /pro/shared-networks and
// /pro/keys/shared-with-me are in the generated OpenAPI; then they become ResponseOf<...> aliases
// like data/federation/types.ts.

/** Which side of a share this console is on. */
export type ShareDirection = "received" | "sent";
export type SharedResourceType = "fabric_network" | "besu_network";
export type SharePlatform = "fabric" | "besu";
/**
 * Received: pending, accepting, accepted or rejected. Sent: sent or failed (and, per recipient,
 * accepted or rejected once it answers). The server types it as a string.
 */
export type ShareStatus = "pending" | "accepting" | "accepted" | "rejected" | "sent" | "failed";

/** The outcome of one recipient of a network share. */
export interface ShareRecipientResult {
  /** Connection id. */
  recipient: number;
  nodeId: string;
  status: "sent" | "failed" | "accepted" | "rejected";
  error: string | null;
}

/** One network shared with this console (received) or by it (sent). */
export interface SharedNetwork {
  /** The share id (one per share, the same on both consoles). */
  id: string;
  direction: ShareDirection;
  resourceType: SharedResourceType;
  platform: SharePlatform;
  networkName: string;
  /** The network's id on the console that shared it. */
  resourceId: string;
  /** Received: the connection (connected peer row id) it came through; sent: null (see recipients). */
  connectionId: number | null;
  sharedBy: string;
  sharedByNodeId: string;
  /** Connected peer row ids the share went to (sent side). */
  recipients: number[];
  status: string;
  error: string | null;
  /** The network created here by accepting it (received side), else null. */
  localNetworkId: number | null;
  createdAt: string;
  /** Received: what was shared; sent: `{recipients: ShareRecipientResult[], metadata}`. */
  dataJson: unknown;
}

export interface SharedNetworkList {
  networks: SharedNetwork[];
}

export interface AcceptSharedNetworkResult {
  networkId: number;
  status: "accepted";
}

export interface RejectSharedNetworkResult {
  status: "rejected";
}

/** Body of POST /pro/sharing/network (Fabric) and /pro/sharing/besu-network. */
export interface ShareNetworkBody {
  networkId: number;
  /** Connected peer row ids (GET /node/connected-peers rows' `id`). */
  recipients: number[];
  metadata?: Record<string, string>;
}

export interface ShareNetworkResult {
  shareId: string;
  networkId: number;
  recipients: number[];
  /** sent when at least one recipient received it, else failed. */
  status: "sent" | "failed";
  metadata: Record<string, string>;
  /** What was sent, base64. */
  genesisBlock: string;
  results: ShareRecipientResult[];
}

/** Body of POST /pro/sharing/key: one public key to one connected console. */
export interface ShareKeyBody {
  key_id: number;
  /** Connected peer row id. */
  peer_id: number;
  /** RFC 3339; absent means it does not expire. */
  expires_at?: string;
  metadata?: Record<string, string>;
}

export interface ShareKeyResult {
  share_id: string;
  key_id: string;
  peer_id: number;
  status: "sent";
  shared_at: string;
  expires_at: string | null;
  metadata: Record<string, string>;
}

/** A public key another console shared with this one. */
export interface SharedKey {
  share_id: string;
  /** The key's id on the sending console. */
  key_id: string;
  name: string;
  algorithm: string;
  curve: string | null;
  key_size: number | null;
  format: string;
  public_key: string;
  ethereum_address: string | null;
  /** The connection id it came through (null once that connection is gone). */
  shared_by: number | null;
  shared_by_node_id: string;
  shared_at: string;
  expires_at: string | null;
  status: "active" | "expired";
  metadata: Record<string, string>;
}

export interface SharedKeyList {
  keys: SharedKey[];
  total: number;
}

export interface SharedKeyFilters {
  status?: "active" | "expired" | undefined;
  /** "false" hides expired shares, "true" shows only them. */
  expired?: "true" | "false" | undefined;
  limit: number;
  offset: number;
}
