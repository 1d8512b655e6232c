import { z } from "zod";
import { dbId, lazySchema } from "../../http/schema-helpers.js";
import { NODE_ID_PATTERN } from "./federation.crypto.js";

/**
 * The messages consoles send each other under /api/v1/federation. Both sides validate them with
 * these schemas: what a console serves and what it accepts from another are bounded the same way.
 */

/** A public certificate. Anything carrying private key material is refused on both ends. */
const certificate = lazySchema(() =>
  z
    .string()
    .max(16_384)
    .regex(/^-----BEGIN CERTIFICATE-----[\s\S]*-----END CERTIFICATE-----\s*$/, "must be a PEM certificate")
    .refine((pem) => !/PRIVATE KEY/.test(pem), "must not contain private key material")
    .describe("PEM certificate"),
);
const text = (max: number, what: string) => z.string().max(max).describe(what);
const remoteId = lazySchema(() => dbId().describe("Id on the serving console"));

export const wireOrganization = lazySchema(() =>
  z
    .object({
      id: remoteId,
      mspId: text(255, "MSP id").min(1),
      name: text(255, "Name").min(1),
      signCertificate: certificate.describe("Sign CA certificate"),
      tlsCertificate: certificate.describe("TLS CA certificate"),
    })
    .describe("A Fabric organization's public material"),
);

export const wireFabricNode = lazySchema(() =>
  z
    .object({
      id: remoteId,
      name: text(255, "Node name").min(1),
      mspId: text(255, "MSP id").min(1),
      externalEndpoint: text(512, "host:port other nodes dial"),
      signCertificate: certificate.describe("Signing certificate"),
      tlsCertificate: certificate.describe("TLS certificate"),
      tlsCaCertificate: certificate.describe("TLS CA certificate"),
      version: text(64, "Fabric version"),
    })
    .describe("A Fabric peer or orderer (no admin address, no keys)"),
);

export const wireBesuNode = lazySchema(() =>
  z
    .object({
      id: remoteId,
      name: text(255, "Node name").min(1),
      enodeUrl: text(1024, "enode URL"),
      rpcUrl: text(1024, "JSON-RPC URL"),
      p2pHost: text(253, "Advertised P2P host"),
      p2pPort: z.number().int().min(0).max(65535).describe("P2P port"),
      metricsEnabled: z.boolean().describe("Whether it serves metrics"),
      metricsPort: z.number().int().min(0).max(65535).describe("Metrics port"),
      version: text(64, "Besu version"),
    })
    .describe("A Besu node (no keys)"),
);

export const wireInventory = lazySchema(() =>
  z
    .object({
      organizations: z.array(wireOrganization).max(1000).describe("Fabric organizations"),
      fabric_peers: z.array(wireFabricNode).max(5000).describe("Fabric peers"),
      fabric_orderers: z.array(wireFabricNode).max(5000).describe("Fabric orderers"),
      besu_nodes: z.array(wireBesuNode).max(5000).describe("Besu nodes"),
    })
    .describe("This console's organizations and nodes, public material only")
    .meta({ id: "FederationInventory" }),
);
export type WireInventory = z.infer<typeof wireInventory>;
export type WireFabricNode = z.infer<typeof wireFabricNode>;

const wireNodeId = lazySchema(() =>
  z.string().regex(NODE_ID_PATTERN, "must be a console node id").describe("Sender's node id"),
);
const endpoint = lazySchema(() =>
  z
    .string()
    .max(2048)
    .regex(/^https?:\/\/[^\s]+$/, "must be an http(s) URL")
    .describe("Sender's endpoint URL"),
);

export const handshakeBody = lazySchema(() =>
  z
    .object({
      invitation_nonce: z
        .string()
        .regex(/^[A-Za-z0-9_-]{22}$/, "must be an invitation nonce")
        .describe("Nonce of the invitation being accepted"),
      node_id: wireNodeId,
      public_key: z.string().max(64).describe("Sender's raw Ed25519 public key, base64url"),
      endpoint,
    })
    .describe("Handshake: the accepting console presents itself and the invitation nonce")
    .meta({ id: "FederationHandshake" }),
);
export type HandshakeBody = z.infer<typeof handshakeBody>;

export const handshakeResponse = lazySchema(() =>
  z
    .object({ node_id: z.string().describe("The inviting console's node id") })
    .meta({ id: "FederationHandshakeResponse" }),
);

export const pingResponse = lazySchema(() =>
  z
    .object({
      node_id: z.string().describe("The answering console's node id"),
      time: z.string().describe("Its clock (ISO-8601)"),
      metrics_federation: z
        .boolean()
        .optional()
        .describe("Whether the answering console grants the pinging one metrics federation"),
    })
    .meta({ id: "FederationPing" }),
);

export const ackResponse = lazySchema(() =>
  z.object({ message: z.string().describe("What happened") }).meta({ id: "FederationAck" }),
);

/** The headers that carry a request's signature (docs/federation.md). */
export const HEADERS = {
  from: "x-chainlaunch-node",
  to: "x-chainlaunch-to",
  timestamp: "x-chainlaunch-timestamp",
  nonce: "x-chainlaunch-nonce",
  signature: "x-chainlaunch-signature",
} as const;
