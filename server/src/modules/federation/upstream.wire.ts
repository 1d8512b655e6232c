import { z } from "zod";
import { dbId, lazySchema } from "../../http/schema-helpers.js";
import { InputError } from "../../http/errors.js";
import { MAX_CC_WIRE_BYTES } from "../governance/chaincode-proposals.wire.js";

/**
 * Upstream's own console-to-console shapes (communication.Message and the Receive*Request bodies),
 * served as a second route set over the same services (docs/federation-upstream.md). Unknown
 * fields are accepted (Go clients send them), nulls of optional fields read as absent.
 */

/** Largest /pro/receive body: a chaincode proposal (with its source) base64-encoded once more as the payload. */
export const MAX_MESSAGE_BYTES = Math.ceil((MAX_CC_WIRE_BYTES * 4) / 3) + 64 * 1024;

const metadata = lazySchema(() =>
  z
    .record(z.string().max(128), z.string().max(1024))
    .refine((m) => Object.keys(m).length <= 32, "at most 32 entries")
    .describe("Free-form labels (at most 32)"),
);

/**
 * Go's `[]byte`: encoding/json writes it as a base64 string; the reference file types it as an array
 * of integers. Both are accepted; a number outside 0–255 or a string that is not base64 is refused.
 */
export const goBytes = (max: number) =>
  z
    .union([
      z
        .string()
        .max(Math.ceil((max * 4) / 3) + 4)
        .regex(/^[A-Za-z0-9+/=]*$/, "must be base64"),
      z.array(z.number().int().min(0).max(255)).max(max),
    ])
    .describe("Bytes: a base64 string (Go's encoding of []byte) or an array of byte values");

/** The bytes of a goBytes value. */
export function bytesOf(v: string | number[]): Buffer {
  return typeof v === "string" ? Buffer.from(v, "base64") : Buffer.from(v);
}

export const MESSAGE_SUBTYPES = [
  "ShareNetwork",
  "ShareBesuNetwork",
  "ShareConfigUpdate",
  "ShareChaincodeDefinition",
  "ShareSignature",
  "ShareKey",
] as const;
export type MessageSubType = (typeof MESSAGE_SUBTYPES)[number];

/** upstream's communication.Message: one envelope for every governance and sharing message. */
export const upstreamMessage = lazySchema(() =>
  z
    .object({
      id: z.string().max(128).optional().describe("Message id (informational)"),
      nonce: z.string().max(128).optional().describe("The sender's nonce (replay protection uses the signed header's)"),
      sender_id: z.string().max(64).optional().describe("Sender's node id; must be the signing node when given"),
      timestamp: z.number().int().optional().describe("Unix seconds (informational; the signed header's is checked)"),
      type: z.enum(["PING", "STATUS_UPDATE", "DATA_EXCHANGE"]).optional().describe("Message type"),
      subType: z.enum(MESSAGE_SUBTYPES).describe("What the payload is; decides which handler receives it"),
      payload: goBytes(MAX_MESSAGE_BYTES).describe(
        "The message for that subType as JSON bytes, in this console's wire shape (docs/federation-upstream.md)",
      ),
    })
    .describe("upstream's communication.Message")
    .meta({ id: "UpstreamMessage" }),
);
export type UpstreamMessage = z.infer<typeof upstreamMessage>;

export const messageReceipt = lazySchema(() =>
  z
    .record(z.string(), z.boolean())
    .describe("`{success: true}` once the handler of the subType accepted the message")
    .meta({ id: "UpstreamMessageReceipt" }),
);

/** upstream's response.Response. */
export const upstreamResponse = lazySchema(() =>
  z
    .object({
      message: z.string().describe("What happened"),
      data: z.unknown().describe("What the handler answered (the receiver's share or proposal id)"),
    })
    .meta({ id: "UpstreamResponse" }),
);

const shareId = lazySchema(() => z.string().max(64).describe("The sender's share id"));
const senderId = lazySchema(() =>
  z.string().max(64).optional().describe("Sender's node id; must be the signing node when given"),
);

export const receiveNetworkBody = lazySchema(() =>
  z
    .object({
      genesisBlock: goBytes(6 * 1024 * 1024).describe("Fabric: block 0 (protobuf); Besu: the genesis JSON text"),
      name: z.string().min(1).max(255).describe("Network name (Fabric: the channel)"),
      networkId: dbId().describe("The network's id on the sending console"),
      peerNodeId: z.string().max(64).optional().describe("Sender's node id; must be the signing node when given"),
      platform: z.string().max(16).describe("FABRIC or BESU (any case)"),
      shareId: z
        .string()
        .max(64)
        .optional()
        .describe("The sender's share id (product addition: repeats are idempotent)"),
      chainId: z.number().int().min(1).optional().describe("Besu: the chain id the genesis carries"),
    })
    .describe("upstream's communication.ReceiveNetworkShareRequest")
    .meta({ id: "UpstreamReceiveNetworkShare" }),
);

export const receiveKeyBody = lazySchema(() =>
  z
    .object({
      algorithm: z.string().max(16).describe("EC, ED25519 or RSA"),
      curve: z.string().max(16).optional().describe("Curve of an EC key"),
      format: z.string().max(16).optional().describe("PEM"),
      keySize: z.number().int().min(0).max(16_384).optional().describe("RSA modulus size"),
      metadata: metadata.optional(),
      name: z.string().min(1).max(255).describe("Key name"),
      publicKey: z.string().min(1).max(16_384).describe("PEM public key"),
      senderId,
      shareId,
      status: z.string().max(32).optional().describe("Ignored: a received key is active"),
    })
    .describe("upstream's communication.ReceiveKeyShareRequest")
    .meta({ id: "UpstreamReceiveKeyShare" }),
);

export const receiveKeyLegacyBody = lazySchema(() =>
  z
    .object({
      algorithm: z.string().max(16).describe("EC, ED25519 or RSA"),
      curve: z.string().max(16).optional().describe("Curve of an EC key"),
      ethereum_address: z.string().max(42).optional().describe("EIP-55 address; checked against the key"),
      format: z.string().max(16).optional().describe("PEM"),
      key_size: z.number().int().min(0).max(16_384).optional().describe("RSA modulus size"),
      metadata: metadata.optional(),
      name: z.string().min(1).max(255).describe("Key name"),
      public_key: z.string().min(1).max(16_384).describe("PEM public key"),
      share_id: z.string().min(1).max(64).describe("The sender's share id"),
      shared_by: z.number().int().optional().describe("Ignored: the sender is the signing console"),
      status: z.string().max(32).optional().describe("Ignored: a received key is active"),
    })
    .describe("upstream's pro.ReceiveKeyRequest")
    .meta({ id: "UpstreamReceiveKey" }),
);

export const receiveKeyLegacyResponse = lazySchema(() =>
  z
    .object({
      success: z.boolean().describe("The key was stored"),
      key_id: z.string().describe("The share id on this console (GET /pro/keys/shared-with-me)"),
      error: z.string().optional().describe("Never set on success"),
    })
    .meta({ id: "UpstreamReceiveKeyResponse" }),
);

export const receiveChaincodeBody = lazySchema(() =>
  z
    .object({
      chaincodeId: z.string().min(1).max(64).describe("The chaincode's id on the sending console"),
      dockerImage: z.string().max(500).optional().describe("Image of the chaincode server"),
      metadata: metadata.optional(),
      senderId,
      sequence: z.number().int().min(1).max(2_147_483_647).describe("Definition sequence"),
      shareId: z.string().min(1).max(64).describe("The sender's share id"),
      version: z.string().min(1).max(64).describe("Version label"),
      name: z.string().max(128).optional().describe("Chaincode name (product addition)"),
      channelName: z.string().max(249).optional().describe("Channel (product addition)"),
      sharedBy: z.string().max(255).optional().describe("Who shared it on the sending console (product addition)"),
    })
    .describe("upstream's communication.ReceiveChaincodeShareRequest")
    .meta({ id: "UpstreamReceiveChaincodeShare" }),
);
export type ReceiveChaincodeBody = z.infer<typeof receiveChaincodeBody>;

export const receiveConfigUpdateBody = lazySchema(() =>
  z
    .object({
      channelName: z.string().min(1).max(249).describe("Channel"),
      configUpdate: goBytes(8 * 1024 * 1024).describe("The marshalled ConfigUpdate"),
      metadata: metadata.optional(),
      proposalId: z.string().min(1).max(64).describe("The proposer's proposal id"),
      senderId,
      shareId: z.string().max(64).optional().describe("The sender's share id"),
    })
    .describe("upstream's communication.ReceiveConfigUpdateShareRequest")
    .meta({ id: "UpstreamReceiveConfigUpdateShare" }),
);

/** upstream's communication.ExternalNodesAuthRequest: the body's fields are checked against the signed headers. */
export const externalNodesAuthBody = lazySchema(() =>
  z
    .object({
      node_id: z.string().max(64).optional().describe("Requesting node id; must be the signing node when given"),
      nonce: z.string().max(128).optional().describe("Informational (the signed header's nonce is checked)"),
      signature: z.string().max(512).optional().describe("Informational (the signed headers carry the signature)"),
      timestamp: z.number().int().optional().describe("Informational (the signed header's timestamp is checked)"),
    })
    .describe("upstream's communication.ExternalNodesAuthRequest")
    .meta({ id: "UpstreamExternalNodesAuth" }),
);

export const metricsEnabledResponse = lazySchema(() =>
  z
    .object({
      metrics_enabled: z
        .boolean()
        .describe("This console grants the caller metrics federation and its Prometheus runs with node jobs"),
    })
    .meta({ id: "MetricsEnabledResponse" }),
);

export const forwardMetricsQuery = lazySchema(() =>
  z
    .object({
      "match[]": z
        .union([z.string().max(2000), z.array(z.string().max(2000)).max(20)])
        .optional()
        .describe("Series selectors of Prometheus's /federate (at least one)"),
    })
    .describe("Selectors of the series to forward"),
);

export const nodeJwk = lazySchema(() =>
  z
    .object({
      kty: z.literal("OKP").describe("Key type"),
      crv: z.literal("Ed25519").describe("Curve"),
      x: z.string().describe("The raw 32-byte public key, base64url"),
      kid: z.string().describe("The node id (derived from the key)"),
      use: z.literal("sig").describe("Signatures"),
      alg: z.literal("EdDSA").describe("Algorithm"),
    })
    .describe("This console's public key as a JWK (RFC 7517, 8037); never a private part")
    .meta({ id: "NodeJwk" }),
);

/** The sender named in a body must be the signing console (a body can't speak for another node). */
export function sameSender(field: string, named: string | undefined, signed: string): void {
  if (named !== undefined && named !== "" && named !== signed) {
    throw new InputError(`${field}: is not the signing node`);
  }
}
