// Local types from the design (docs/federation.md, the sharing contract): the server side is being
// built on another branch, so these stand in until /pro/sharing and /pro/shared-networks are in the
// generated OpenAPI; then they become ResponseOf<...> aliases like data/federation/types.ts.

/** Which side of a share this console is on. */
export type ShareDirection = "received" | "sent";
export type SharedResourceType = "fabric_network" | "besu_network";
export type SharePlatform = "fabric" | "besu";
/** pending/accepted/rejected on the receiving side; sent/failed on the sending side. */
export type ShareStatus = "pending" | "accepted" | "rejected" | "sent" | "failed";

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
  /** The connection (connected peer row id) the share came through or went to. */
  connectionId: number;
  sharedBy: string;
  sharedByNodeId: string;
  /** Connected peer row ids the share went to (sent side). */
  recipients: number[];
  status: ShareStatus;
  error: string | null;
  /** The network created here by accepting it (received side), else null. */
  localNetworkId: number | null;
  createdAt: string;
  dataJson: unknown;
}

export interface SharedNetworkList {
  networks: SharedNetwork[];
}

export interface AcceptSharedNetworkResult {
  networkId: number;
  status: string;
}

export interface RejectSharedNetworkResult {
  status: string;
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
  status: string;
  metadata: Record<string, string> | null;
  genesisBlock: number[] | null;
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
  key_id: number;
  peer_id: number;
  status: string;
  shared_at: string;
  expires_at: string | null;
}

/** A public key another console shared with this one. */
export interface SharedKey {
  share_id: string;
  key_id: number;
  name: string;
  algorithm: string;
  curve: string | null;
  key_size: number | null;
  format: string | null;
  public_key: string;
  ethereum_address: string | null;
  /** The connection id it came through. */
  shared_by: number;
  shared_at: string;
  expires_at: string | null;
  status: string;
  metadata: Record<string, string> | null;
}

export interface SharedKeyList {
  keys: SharedKey[];
  total: number;
}

export interface SharedKeyFilters {
  status?: string | undefined;
  expired?: boolean | undefined;
  limit: number;
  offset: number;
}
