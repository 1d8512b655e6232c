import { z } from "zod";
import { dbId, lazySchema } from "../../http/schema-helpers.js";

/**
 * The share messages consoles send each other (POST /federation/shares/*). Field names follow
 * upstream's communication.ReceiveNetworkShareRequest and ReceiveKeyShareRequest. Everything is
 * public material; the receiver checks the contents (sharing.receive.ts), these bound the shapes.
 */

/** Largest share message accepted: a genesis block can be a few hundred KiB, base64 adds a third. */
export const MAX_SHARE_BODY_BYTES = 8 * 1024 * 1024;

const shareId = lazySchema(() =>
  z
    .string()
    .regex(/^[0-9a-f-]{36}$/, "must be a UUID")
    .describe("The sender's share id (UUID)"),
);
const metadata = lazySchema(() =>
  z
    .record(z.string().max(128), z.string().max(1024))
    .refine((m) => Object.keys(m).length <= 32, "at most 32 entries")
    .describe("Free-form labels the sender attached (at most 32)"),
);
const sharedBy = lazySchema(() =>
  z.string().max(255).nullable().describe("The user who shared it on the sending console"),
);

export const wireOrderer = lazySchema(() =>
  z
    .object({
      mspId: z.string().min(1).max(255).describe("Orderer organization's MSP id"),
      endpoints: z
        .array(
          z
            .string()
            .max(512)
            .regex(/^[^\s:/]+:\d{1,5}$/, "must be host:port")
            .describe("host:port"),
        )
        .max(64)
        .describe("The organization's orderer endpoints"),
      tlsCaCerts: z
        .array(
          z
            .string()
            .max(16_384)
            .regex(/^-----BEGIN CERTIFICATE-----[\s\S]*-----END CERTIFICATE-----\s*$/, "must be a PEM certificate")
            .refine((pem) => !/PRIVATE KEY/.test(pem), "must not contain private key material")
            .describe("PEM certificate"),
        )
        .max(16)
        .describe("TLS CA certificates to trust the endpoints with"),
    })
    .describe("An orderer organization of the channel"),
);

export const wireNetworkShare = lazySchema(() =>
  z
    .object({
      shareId,
      networkId: dbId().describe("The network's id on the sending console"),
      name: z.string().min(1).max(255).describe("Network name (Fabric: the channel name)"),
      platform: z.enum(["fabric", "besu"]).describe("fabric or besu"),
      genesisBlock: z
        .string()
        .min(4)
        .max(MAX_SHARE_BODY_BYTES)
        .describe("Base64: Fabric's block 0 (protobuf), or Besu's genesis JSON text"),
      chainId: z
        .number()
        .int()
        .min(1)
        .max(Number.MAX_SAFE_INTEGER)
        .optional()
        .describe("Besu: the chain id the genesis must carry"),
      orderers: z.array(wireOrderer).max(64).optional().describe("Fabric: the channel's orderer organizations"),
      bootnodes: z
        .array(z.string().max(400).describe("enode URL"))
        .max(100)
        .optional()
        .describe("Besu: enode URLs of the network's nodes on the sending console"),
      sharedBy,
      metadata: metadata.optional(),
    })
    .describe("A network shared by another console")
    .meta({ id: "FederationNetworkShare" }),
);
export type WireNetworkShare = z.infer<typeof wireNetworkShare>;

export const wireKeyShare = lazySchema(() =>
  z
    .object({
      shareId,
      keyId: z.string().max(64).describe("The key's id on the sending console"),
      name: z.string().min(1).max(255).describe("Key name"),
      algorithm: z.string().max(16).describe("EC, ED25519 or RSA"),
      curve: z.string().max(16).nullable().describe("Curve of EC keys"),
      keySize: z.number().int().min(0).max(16_384).nullable().describe("RSA modulus size"),
      format: z.literal("PEM").describe("Encoding of publicKey"),
      publicKey: z.string().min(1).max(16_384).describe("SubjectPublicKeyInfo PEM (never private material)"),
      ethereumAddress: z.string().max(42).nullable().optional().describe("EIP-55 address of a secp256k1 key"),
      expiresAt: z.string().max(32).nullable().optional().describe("When the share expires (ISO-8601)"),
      sharedBy,
      metadata: metadata.optional(),
    })
    .describe("A public key shared by another console")
    .meta({ id: "FederationKeyShare" }),
);
export type WireKeyShare = z.infer<typeof wireKeyShare>;

export const wireShareReceipt = lazySchema(() =>
  z
    .object({
      shareId: z.string().describe("The receiver's own id of the share"),
      status: z.string().describe("pending for networks, active for keys"),
    })
    .meta({ id: "FederationShareReceipt" }),
);

export const wireShareAnswer = lazySchema(() =>
  z
    .object({
      shareId,
      status: z.enum(["accepted", "rejected"]).describe("What the recipient did with the share"),
    })
    .describe("A recipient tells the sender it accepted or rejected a network share")
    .meta({ id: "FederationShareAnswer" }),
);
export type WireShareAnswer = z.infer<typeof wireShareAnswer>;
