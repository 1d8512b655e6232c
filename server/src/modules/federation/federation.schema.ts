import { z } from "zod";
import { lazySchema, MAX_DB_ID } from "../../http/schema-helpers.js";

/** Schemas of the operator-facing /node/* routes (upstream's communication.* shapes). */

/** A connected console's node id (ours are cl- and 32 hex characters; unknown ids are a 404, not a 400). */
const nodeId = lazySchema(() =>
  z
    .string()
    .min(1)
    .max(128)
    .regex(/^[A-Za-z0-9._:-]+$/, "must be a node id (letters, digits, '.', '_', ':' and '-')"),
);

export const identityResponse = lazySchema(() =>
  z
    .object({
      node_id: z.string().describe("This console's node id: cl- and the first 32 hex characters of SHA-256 of its key"),
      public_key: z.string().describe("This console's Ed25519 public key (raw 32 bytes, base64url)"),
      endpoint: z
        .string()
        .nullable()
        .describe(
          "The URL other consoles reach this one at (settings federationEndpoint, else CHAINLAUNCH_PUBLIC_URL)",
        ),
    })
    .describe("This console's federation identity")
    .meta({ id: "FederationIdentity" }),
);
export type IdentityResponse = z.infer<typeof identityResponse>;

export const generateInvitationBody = lazySchema(() =>
  z
    .object({
      bidirectional: z
        .boolean()
        .optional()
        .describe("Recorded in the invitation; connections are always registered on both sides (docs/federation.md)"),
      options: z
        .object({
          expires_in_hours: z
            .number()
            .int()
            .min(1)
            .max(720)
            .optional()
            .describe("Hours until the invitation expires (default 24, at most 720 = 30 days)"),
        })
        .optional()
        .describe("Invitation options"),
    })
    .describe("Invitation request"),
);

export const invitationResponse = lazySchema(() =>
  z
    .object({
      invitation_jwt: z
        .string()
        .describe("Compact JWS (EdDSA) carrying this console's node id, endpoint, public key and a one-time nonce"),
    })
    .meta({ id: "NodeInvitationResponse" }),
);

export const acceptInvitationBody = lazySchema(() =>
  z
    .object({ invitation_jwt: z.string().trim().min(1).max(8192).describe("The invitation, as generated") })
    .describe("Accept invitation request"),
);

export const acceptInvitationResponse = lazySchema(() =>
  z
    .object({
      success: z.boolean().describe("True when both consoles registered each other"),
      message: z.string().describe("What happened, naming the connected console"),
      error: z.string().optional().describe("Never set: refusals are 4xx error responses"),
    })
    .meta({ id: "NodeAcceptInvitationResponse" }),
);

export const connectedPeer = lazySchema(() =>
  z
    .object({
      id: z.number().int().describe("Connection id (externalNodeId of the nodes synced through it)"),
      node_id: z.string().describe("The other console's node id"),
      peer_endpoint: z.string().describe("The other console's endpoint URL"),
      peer_public_key: z.string().describe("The other console's Ed25519 public key (raw, base64url)"),
      status: z.enum(["connected", "unreachable", "revoked"]).describe("connected, unreachable or revoked"),
      metrics_federation: z
        .boolean()
        .describe(
          "Whether this console grants that console read access to its node metrics (POST /node/metrics-federation)",
        ),
      peer_grants_metrics: z
        .boolean()
        .nullable()
        .describe(
          "Whether that console grants this one read access to its node metrics, as it last said (ping or query); null until known",
        ),
      analytics_enabled: z.boolean().describe("Upstream field; always false"),
      last_seen_at: z.string().nullable().describe("When the other console last answered or sent a valid message"),
      last_error: z.string().nullable().describe("Why the last ping failed, or why it was revoked"),
    })
    .meta({ id: "ConnectedPeer" }),
);
export type ConnectedPeer = z.infer<typeof connectedPeer>;

export const connectedPeersResponse = lazySchema(() =>
  z
    .object({ connected_peers: z.array(connectedPeer).describe("Every known console, revoked ones included") })
    .meta({ id: "ConnectedPeersResponse" }),
);

export const nodeIdParams = lazySchema(() =>
  z.object({ node_id: nodeId.describe("Node id of the connected console") }).strict(),
);
export const peerIdParams = lazySchema(() =>
  z.object({ peer_id: nodeId.describe("Node id of the connected console") }).strict(),
);

export const messageResponse = lazySchema(() =>
  z.object({ message: z.string().describe("What happened") }).meta({ id: "FederationMessageResponse" }),
);

export const syncBody = lazySchema(() =>
  z.object({ peer_node_id: nodeId.describe("Node id of the connected console to pull from") }).describe("Sync request"),
);

export const syncResponse = lazySchema(() =>
  z
    .object({
      organizations_added: z.number().int().describe("Organizations new to this console"),
      organizations_deleted: z.number().int().describe("Organizations the other console no longer has"),
      fabric_peers_added: z.number().int().describe("Peers new to this console"),
      fabric_peers_deleted: z.number().int().describe("Peers the other console no longer has"),
      fabric_orderers_added: z.number().int().describe("Orderers new to this console"),
      fabric_orderers_deleted: z.number().int().describe("Orderers the other console no longer has"),
      besu_nodes_added: z.number().int().describe("Besu nodes new to this console"),
      besu_nodes_deleted: z.number().int().describe("Besu nodes the other console no longer has"),
      errors: z.array(z.string()).describe("Entries that could not be stored"),
    })
    .meta({ id: "SyncExternalNodesResponse" }),
);
export type SyncResponse = z.infer<typeof syncResponse>;

const localId = lazySchema(() =>
  z.number().int().describe("Id on this console (for DELETE); the other console's id on a live fetch"),
);
const connectionId = lazySchema(() =>
  z.number().int().describe("Id of the connection it came through (GET /node/connected-peers)"),
);

export const externalOrganization = lazySchema(() =>
  z
    .object({
      id: localId,
      externalNodeId: connectionId,
      mspId: z.string().describe("MSP id"),
      name: z.string().describe("Organization name"),
      signCertificate: z.string().describe("Sign CA certificate (PEM)"),
      tlsCertificate: z.string().describe("TLS CA certificate (PEM)"),
    })
    .meta({ id: "ExternalOrganization" }),
);
export type ExternalOrganization = z.infer<typeof externalOrganization>;

const fabricNodeFields = {
  id: localId,
  externalNodeId: connectionId,
  name: z.string().describe("Node name"),
  mspId: z.string().describe("MSP id of its organization"),
  externalEndpoint: z.string().describe("host:port other nodes and clients dial"),
  signCertificate: z.string().describe("The node's signing certificate (PEM)"),
  tlsCertificate: z.string().describe("The node's TLS certificate (PEM)"),
  tlsCaCertificate: z.string().describe("The TLS CA certificate that issued it (PEM), to trust its endpoint"),
  version: z.string().describe("Fabric version"),
};
export const externalFabricPeer = lazySchema(() => z.object(fabricNodeFields).meta({ id: "ExternalFabricPeer" }));
export const externalFabricOrderer = lazySchema(() => z.object(fabricNodeFields).meta({ id: "ExternalFabricOrderer" }));
export type ExternalFabricNode = z.infer<typeof externalFabricPeer>;

export const externalBesuNode = lazySchema(() =>
  z
    .object({
      id: localId,
      externalNodeId: connectionId,
      name: z.string().describe("Node name"),
      enodeUrl: z.string().describe("enode URL (for bootnodes)"),
      rpcUrl: z.string().describe("JSON-RPC URL"),
      p2pHost: z.string().describe("Advertised P2P host"),
      p2pPort: z.number().int().describe("P2P port"),
      metricsEnabled: z.boolean().describe("Whether the node serves metrics"),
      metricsPort: z.number().int().describe("Metrics port"),
      version: z.string().describe("Besu version"),
    })
    .meta({ id: "ExternalBesuNode" }),
);
export type ExternalBesuNode = z.infer<typeof externalBesuNode>;

export const peerNodesResponse = lazySchema(() =>
  z
    .object({
      organizations: z.array(externalOrganization).describe("Fabric organizations"),
      fabric_peers: z.array(externalFabricPeer).describe("Fabric peers"),
      fabric_orderers: z.array(externalFabricOrderer).describe("Fabric orderers"),
      besu_nodes: z.array(externalBesuNode).describe("Besu nodes"),
    })
    .meta({ id: "PeerExternalNodesResponse" }),
);
export type PeerNodesResponse = z.infer<typeof peerNodesResponse>;

export const allExternalNodesResponse = lazySchema(() =>
  z
    .object({
      fabric_peers: z.array(externalFabricPeer).describe("External Fabric peers"),
      fabric_orderers: z.array(externalFabricOrderer).describe("External Fabric orderers"),
      besu_nodes: z.array(externalBesuNode).describe("External Besu nodes"),
    })
    .meta({ id: "ExternalNodesResponse" }),
);

export const externalIdParams = lazySchema(() =>
  z.object({ id: z.coerce.number().int().min(1).max(MAX_DB_ID).describe("External record id") }).strict(),
);
