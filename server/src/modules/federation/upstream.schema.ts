import { z } from "zod";
import { dbId, lazySchema } from "../../http/schema-helpers.js";
import { recipientResult } from "./sharing.schema.js";
import { goBytes } from "./upstream.wire.js";

/** Schemas of upstream's operator-facing routes of the second route set (docs/federation-upstream.md). */

const metadata = lazySchema(() =>
  z
    .record(z.string().max(128), z.string().max(1024))
    .refine((m) => Object.keys(m).length <= 32, "at most 32 entries")
    .describe("Free-form labels sent along (at most 32)"),
);
const recipients = lazySchema(() =>
  z
    .array(dbId().describe("Connection id (GET /node/connected-peers)"))
    .max(50)
    .describe("Connected consoles to share with, by connection id"),
);
const expiresAt = lazySchema(() =>
  z.string().max(64).optional().describe("When the share expires (RFC 3339); informational"),
);

export const registerPeerBody = lazySchema(() =>
  z
    .object({
      node_id: z.string().max(64).optional().describe("The peer's node id; must be the one its key derives"),
      node_name: z.string().max(255).optional().describe("Informational"),
      node_type: z.string().max(64).optional().describe("Informational"),
      peer_endpoint: z.string().min(1).max(2048).describe("The peer's base URL (http or https)"),
      peer_public_key: z
        .string()
        .min(1)
        .max(4096)
        .describe("The peer's Ed25519 public key: raw 32 bytes in base64url, a PEM SubjectPublicKeyInfo or a JWK"),
      analytics_enabled: z.boolean().optional().describe("Informational"),
    })
    .describe("upstream's communication.RegisterPeerRequest")
    .meta({ id: "RegisterPeerRequest" }),
);

export const registerPeerResponse = lazySchema(() =>
  z
    .record(z.string(), z.string())
    .describe("`message`, the registered `node_id`, its connection id `peer_id` and `status`")
    .meta({ id: "RegisterPeerResponse" }),
);

export const chaincodeShareBody = lazySchema(() =>
  z
    .object({
      chaincodeId: z
        .string()
        .min(1)
        .max(20)
        .describe("Id of the chaincode on this console (GET /sc/fabric/chaincodes)"),
      version: z.string().min(1).max(64).describe("Version label of the definition"),
      sequence: z.number().int().min(1).max(2_147_483_647).describe("Definition sequence"),
      dockerImage: z.string().max(500).optional().describe("Image of the chaincode server"),
      expiresAt,
      metadata: metadata.optional(),
      recipients,
    })
    .describe("upstream's pro.ChaincodeShareRequest")
    .meta({ id: "ChaincodeShareRequest" }),
);

export const chaincodeShareResponse = lazySchema(() =>
  z
    .object({
      shareId: z.string().describe("Id of the share on this console"),
      chaincodeId: z.string().describe("The shared chaincode's id"),
      version: z.string().describe("Version label"),
      sequence: z.number().int().describe("Definition sequence"),
      dockerImage: z.string().describe("Image"),
      expiresAt: z.string().describe("When it expires; empty for never"),
      metadata: z.record(z.string(), z.string()).describe("The labels sent along"),
      recipients: z.array(z.number().int()).describe("Connection ids it was sent to"),
      status: z.string().describe("sent (at least one recipient got it)"),
      results: z.array(recipientResult).describe("Outcome per recipient"),
    })
    .meta({ id: "ChaincodeShareResponse" }),
);

export const configProposalShareBody = lazySchema(() =>
  z
    .object({
      proposalId: z.string().min(1).max(64).describe("Id of a config-update proposal of this console"),
      channelName: z.string().max(249).optional().describe("Checked against the proposal's channel when given"),
      configUpdate: goBytes(8 * 1024 * 1024)
        .optional()
        .describe("Checked against the proposal's update bytes when given (base64 or byte array)"),
      expiresAt,
      metadata: metadata.optional(),
      recipients,
    })
    .describe("upstream's pro.ConfigProposalShareRequest")
    .meta({ id: "ConfigProposalShareRequest" }),
);

export const configProposalShareResponse = lazySchema(() =>
  z
    .object({
      shareId: z.string().describe("The proposal id (a proposal is shared as itself)"),
      proposalId: z.string().describe("The proposal id"),
      channelName: z.string().describe("Channel"),
      configUpdate: z.string().describe("The update sent, base64 (Go's []byte encoding)"),
      expiresAt: z.string().describe("As given; empty for never"),
      metadata: z.record(z.string(), z.string()).describe("The labels given"),
      recipients: z.array(z.number().int()).describe("Connection ids"),
      status: z.string().describe("sent (at least one recipient got it)"),
      results: z.array(recipientResult).describe("Outcome per recipient"),
    })
    .meta({ id: "ConfigProposalShareResponse" }),
);

export const sharedChaincode = lazySchema(() =>
  z
    .object({
      id: z.string().describe("Share id"),
      connectionId: z.number().int().nullable().describe("Received: the connection it came through; sent: null"),
      createdAt: z.string().describe("When it was sent or received"),
      dataJson: z.unknown().describe("The definition: chaincodeId, name, channelName, version, sequence, dockerImage"),
      recipients: z.array(z.number().int()).describe("Sent: connection ids; received: empty"),
      resourceId: z.string().describe("The chaincode's id on the sending console"),
      resourceType: z.string().describe("chaincode"),
      sharedBy: z.string().describe("The user who shared it on the sending console"),
      sharedByNodeId: z.string().describe("Node id of the sending console"),
      status: z.string().describe("Received: received. Sent: sent or failed"),
      direction: z.enum(["received", "sent"]).describe("received or sent"),
      expiresAt: z.string().nullable().describe("Sent: when it expires"),
    })
    .meta({ id: "SharedChaincode" }),
);

export const sharedChaincodesQuery = lazySchema(() =>
  z.object({ direction: z.enum(["received", "sent"]).optional().describe("Only one direction") }).describe("Filter"),
);
export const sharedChaincodeList = lazySchema(() =>
  z
    .object({ chaincodes: z.array(sharedChaincode).describe("Newest first") })
    .meta({ id: "SharedChaincodeListResponse" }),
);
export const sharedChaincodeDetail = lazySchema(() =>
  z.object({ chaincode: sharedChaincode }).meta({ id: "SharedChaincodeDetailResponse" }),
);
export const sharedChaincodeParams = lazySchema(() =>
  z.object({ chaincodeId: z.string().min(1).max(64).describe("Share id") }).describe("Path"),
);
