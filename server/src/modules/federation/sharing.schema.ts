import { z } from "zod";
import { dbId, lazySchema, offsetQuery } from "../../http/schema-helpers.js";

/** Schemas of the operator-facing /pro/sharing/*, /pro/shared-networks* and /pro/keys/shared-with-me routes. */

const metadata = lazySchema(() =>
  z
    .record(z.string().max(128), z.string().max(1024))
    .refine((m) => Object.keys(m).length <= 32, "at most 32 entries")
    .describe("Free-form labels sent along with the share (at most 32)"),
);

export const networkShareBody = lazySchema(() =>
  z
    .object({
      networkId: dbId().describe("Id of the network on this console"),
      recipients: z
        .array(dbId().describe("Connection id (GET /node/connected-peers)"))
        .min(1)
        .max(50)
        .describe("Connected consoles to share with, by connection id"),
      metadata: metadata.optional(),
    })
    .describe("Share a network with connected consoles")
    .meta({ id: "NetworkShareRequest" }),
);
export type NetworkShareBody = z.infer<typeof networkShareBody>;

export const recipientResult = lazySchema(() =>
  z
    .object({
      recipient: z.number().int().describe("Connection id"),
      nodeId: z.string().describe("The recipient's node id"),
      status: z
        .enum(["sent", "failed", "accepted", "rejected"])
        .describe("sent, failed (see error), then accepted or rejected when the recipient answers"),
      error: z.string().nullable().describe("Why it failed"),
    })
    .describe("Outcome of one recipient")
    .meta({ id: "ShareRecipientResult" }),
);
export type RecipientResult = z.infer<typeof recipientResult>;

export const networkShareResponse = lazySchema(() =>
  z
    .object({
      shareId: z.string().describe("Id of the share on this console"),
      networkId: z.number().int().describe("The shared network's id"),
      recipients: z.array(z.number().int()).describe("Connection ids it was sent to"),
      status: z.enum(["sent", "failed"]).describe("sent when at least one recipient received it, else failed"),
      metadata: z.record(z.string(), z.string()).describe("The labels sent along"),
      genesisBlock: z
        .string()
        .describe("What was sent, base64 (Go's []byte encoding): Fabric's block 0, or Besu's genesis JSON text"),
      results: z.array(recipientResult).describe("Outcome per recipient"),
    })
    .meta({ id: "NetworkShareResponse" }),
);
export type NetworkShareResponse = z.infer<typeof networkShareResponse>;

export const sharedNetwork = lazySchema(() =>
  z
    .object({
      id: z.string().describe("Share id (for accept, reject and delete)"),
      connectionId: z
        .number()
        .int()
        .nullable()
        .describe("Received: the connection it came through; sent: null (see recipients)"),
      createdAt: z.string().describe("When it was sent or received"),
      dataJson: z
        .unknown()
        .describe(
          "Received: what was shared (genesisBlock base64, chainId, orderers or bootnodes, metadata); sent: the recipients' outcome and metadata",
        ),
      recipients: z.array(z.number().int()).describe("Sent: the connection ids it was sent to; received: empty"),
      resourceId: z.string().describe("The network's id on the sending console"),
      resourceType: z.enum(["fabric_network", "besu_network"]).describe("fabric_network or besu_network"),
      sharedBy: z.string().describe("The user who shared it, on the sending console"),
      sharedByNodeId: z.string().describe("Node id of the sending console"),
      status: z
        .string()
        .describe(
          "Received: pending, accepting, accepted or rejected. Sent: sent or failed (per recipient in dataJson)",
        ),
      direction: z.enum(["received", "sent"]).describe("received or sent"),
      platform: z.enum(["fabric", "besu"]).describe("fabric or besu"),
      networkName: z.string().describe("Network name (Fabric: the channel)"),
      localNetworkId: z.number().int().nullable().describe("The network the accept imported on this console"),
      error: z.string().nullable().describe("Why the last accept (received) or every send (sent) failed"),
    })
    .meta({ id: "SharedNetwork" }),
);
export type SharedNetwork = z.infer<typeof sharedNetwork>;

export const sharedNetworkList = lazySchema(() =>
  z
    .object({ networks: z.array(sharedNetwork).describe("Shares, newest first") })
    .meta({ id: "SharedNetworkListResponse" }),
);
export const sharedNetworkDetail = lazySchema(() =>
  z.object({ network: sharedNetwork.describe("The share") }).meta({ id: "SharedNetworkDetailResponse" }),
);

export const sharedNetworksQuery = lazySchema(() =>
  z
    .object({
      direction: z.enum(["received", "sent"]).optional().describe("Only received or only sent shares (default both)"),
    })
    .strict(),
);

export const shareIdParams = lazySchema(() =>
  z
    .object({
      shareId: z
        .string()
        .min(1)
        .max(64)
        .regex(/^[A-Za-z0-9_-]+$/, "must be a share id (letters, digits, '-' and '_')")
        .describe("Share id (a UUID; an unknown one is a 404)"),
    })
    .strict(),
);

export const acceptSharedNetworkResponse = lazySchema(() =>
  z
    .object({
      networkId: z.number().int().describe("The network imported on this console"),
      status: z.literal("accepted").describe("accepted"),
    })
    .meta({ id: "AcceptSharedNetworkResponse" }),
);
export const rejectSharedNetworkResponse = lazySchema(() =>
  z.object({ status: z.literal("rejected").describe("rejected") }).meta({ id: "RejectSharedNetworkResponse" }),
);

export const keyShareBody = lazySchema(() =>
  z
    .object({
      key_id: dbId().describe("Id of the key on this console; only its public key is sent"),
      peer_id: dbId().describe("Connection id of the recipient (GET /node/connected-peers)"),
      expires_at: z
        .string()
        .datetime({ offset: true })
        .optional()
        .describe("When the share expires (ISO-8601); the recipient lists it as expired after"),
      metadata: metadata.optional(),
    })
    .describe("Share a public key with a connected console")
    .meta({ id: "KeyShareRequest" }),
);
export type KeyShareBody = z.infer<typeof keyShareBody>;

export const keyShareResponse = lazySchema(() =>
  z
    .object({
      share_id: z.string().describe("Id of the share on this console"),
      key_id: z.string().describe("The shared key's id"),
      peer_id: z.number().int().describe("Connection id of the recipient"),
      status: z.literal("sent").describe("sent"),
      shared_at: z.string().describe("When it was sent"),
      expires_at: z.string().nullable().describe("When the share expires"),
      metadata: z.record(z.string(), z.string()).describe("The labels sent along"),
    })
    .meta({ id: "KeyShareResponse" }),
);

export const keysSharedQuery = lazySchema(() =>
  z
    .object({
      status: z.enum(["active", "expired"]).optional().describe("active or expired"),
      expired: z.enum(["true", "false"]).optional().describe("Only expired (true) or only unexpired (false) shares"),
      limit: z.coerce.number().int().min(1).max(1000).default(50).describe("Page size (default 50)"),
      offset: offsetQuery().describe("Rows to skip"),
    })
    .strict(),
);

export const sharedKeyInfo = lazySchema(() =>
  z
    .object({
      share_id: z.string().describe("Id of the share on this console"),
      key_id: z.string().describe("The key's id on the sending console"),
      name: z.string().describe("Key name"),
      algorithm: z.string().describe("EC, ED25519 or RSA (read from the key itself)"),
      curve: z.string().nullable().describe("Curve of EC keys"),
      key_size: z.number().int().nullable().describe("RSA modulus size"),
      format: z.string().describe("Encoding of public_key (PEM)"),
      public_key: z.string().describe("SubjectPublicKeyInfo PEM"),
      ethereum_address: z.string().nullable().describe("EIP-55 address of a secp256k1 key, derived here"),
      shared_by: z.number().int().nullable().describe("Connection id of the console that shared it"),
      shared_by_node_id: z.string().describe("Node id of the console that shared it"),
      shared_at: z.string().describe("When it was received"),
      expires_at: z.string().nullable().describe("When the share expires"),
      status: z.enum(["active", "expired"]).describe("active, or expired after expires_at"),
      metadata: z.record(z.string(), z.string()).describe("The labels sent along"),
    })
    .meta({ id: "SharedKeyInfo" }),
);
export type SharedKeyInfo = z.infer<typeof sharedKeyInfo>;

export const keysSharedResponse = lazySchema(() =>
  z
    .object({
      keys: z.array(sharedKeyInfo).describe("Keys received, newest first"),
      total: z.number().int().describe("How many match the filters"),
    })
    .meta({ id: "GetKeysSharedWithMeResponse" }),
);
