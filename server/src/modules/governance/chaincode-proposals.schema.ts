import { z } from "zod";
import { dbId, lazySchema, MAX_DB_ID } from "../../http/schema-helpers.js";

/**
 * Schemas of /pro/chaincodes/proposals* (docs/governance.md, "Chaincode proposals"). The wire names are
 * upstream's (pro.ChaincodeProposal is camelCase, its create request snake_case); the fields after
 * `updatedAt` are the product's additions.
 */

export const CHAINCODE_PROPOSAL_STATUSES = [
  /** Made on this console. */
  "proposed",
  /** Received from another console, not accepted yet. */
  "received",
  /** Accept is running (build, install, chaincode server, approve). */
  "accepting",
  /** This console's orgs installed and approved it. */
  "accepted",
  /** The last accept failed (see `error`); accept again to retry. */
  "failed",
  /** The definition is committed on the channel. */
  "committed",
] as const;

export const chaincodeProposalIdParams = lazySchema(() =>
  z.object({
    proposalId: z.coerce.number().int().min(1).max(MAX_DB_ID).describe("Chaincode proposal id"),
  }),
);

export const listChaincodeProposalsQuery = lazySchema(() =>
  z.object({
    network_id: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_DB_ID)
      .optional()
      .describe("Only the proposals of this Fabric network"),
  }),
);

export const createChaincodeProposalBody = lazySchema(() =>
  z
    .object({
      name: z
        .string()
        .min(1)
        .max(128)
        .regex(/^[A-Za-z0-9_-]+$/)
        .describe("Chaincode name on the channel"),
      network_id: dbId().describe("The Fabric network (channel)"),
      channel_name: z.string().max(249).optional().describe("Channel name; must match the network's when given"),
      version: z.string().min(1).max(64).describe("Version label"),
      sequence: z.number().int().min(1).max(MAX_DB_ID).describe("Definition sequence (committed sequence + 1)"),
      endorsement_policy: z
        .string()
        .max(2000)
        .optional()
        .describe("Signature-policy DSL or channel policy path; empty for the channel default"),
      docker_image: z.string().max(500).optional().describe("Image to run (needs a Docker engine)"),
      chaincode_address: z
        .string()
        .max(300)
        .optional()
        .describe("host:port of this console's chaincode server (default: a free local port)"),
      init_required: z.boolean().optional().describe("The chaincode's Init must be invoked first"),
      definition_id: dbId()
        .optional()
        .describe("Propose this existing local definition (its source is what recipients receive)"),
    })
    .meta({ id: "CreateChaincodeProposalRequest" }),
);

export const chaincodeProposal = lazySchema(() =>
  z
    .object({
      id: z.number().int().describe("DB PK"),
      chaincodeDefId: z.string().describe("Unique slug, the same on every console the proposal reached"),
      name: z.string().describe("Chaincode name"),
      networkId: z.number().int().describe("The local Fabric network; 0 when this console has none for the channel"),
      channelName: z.string().describe("Channel"),
      version: z.string().describe("Version label"),
      sequence: z.number().int().describe("Definition sequence"),
      endorsementPolicy: z.string().describe("Endorsement policy; empty for the channel default"),
      dockerImage: z.string().describe("Image, when the code is an image"),
      chaincodeAddress: z.string().describe("host:port of this console's chaincode server"),
      status: z
        .enum(CHAINCODE_PROPOSAL_STATUSES)
        .describe("proposed, received, accepting, accepted, failed, committed"),
      connectionId: z.number().int().describe("Connection it came in on; 0 when proposed here"),
      sharedBy: z.string().describe("Who shared it (user and node id); empty when proposed here"),
      sharedByNodeId: z.string().describe("Node id of the console that shared it; empty when proposed here"),
      createdAt: z.string().describe("Created"),
      updatedAt: z.string().describe("Last change"),
      initRequired: z.boolean().describe("The chaincode's Init must be invoked first"),
      sourceType: z.enum(["docker", "node", "go", "executable", "none"]).describe("Where the code comes from"),
      sourceSha256: z.string().describe("SHA-256 of the source archive recipients get; empty when none"),
      definitionId: z.number().int().nullable().describe("The local definition, once created (proposer or accept)"),
      chaincodeId: z.number().int().nullable().describe("The local chaincode, once created"),
      error: z.string().describe("Why the last accept failed; empty otherwise"),
      approvals: z
        .record(z.string(), z.boolean())
        .describe(
          "Each org's approval from CheckCommitReadiness, read by GET of one proposal ({} in lists, and when no peer here can answer)",
        ),
      sharedWith: z.array(z.number().int()).describe("Connection ids it was shared with from this console"),
    })
    .meta({ id: "ChaincodeProposal" }),
);

export const chaincodeDefinitionWithChaincode = lazySchema(() =>
  z
    .object({
      proposal: chaincodeProposal,
      chaincode: z
        .object({
          id: z.number().int().describe("Chaincode id"),
          name: z.string().describe("Name"),
          networkId: z.number().int().describe("Network id"),
        })
        .optional()
        .describe("The local chaincode, once created (omitted before)"),
      definition: z
        .object({
          id: z.number().int().describe("Definition id"),
          chaincodeId: z.number().int().describe("Chaincode id"),
          dockerImage: z.string().describe("Image"),
          endorsementPolicy: z.string().describe("Endorsement policy"),
          proposalId: z.number().int().describe("The proposal's id"),
          sequence: z.number().int().describe("Sequence"),
          version: z.string().describe("Version"),
        })
        .optional()
        .describe("The local definition, once created (omitted before)"),
    })
    .meta({ id: "ChaincodeDefinitionWithChaincode" }),
);

export const shareChaincodeProposalBody = lazySchema(() =>
  z
    .object({
      recipients: z
        .array(dbId())
        .min(1)
        .max(50)
        .describe("Connection ids of the consoles to send it to (GET /node/connected-peers)"),
    })
    .meta({ id: "ShareChaincodeProposalRequest" }),
);

export const shareChaincodeProposalResponse = lazySchema(() =>
  z
    .object({
      success: z.boolean().describe("Every recipient took it"),
      error: z.string().optional().describe("Which recipients failed and why"),
    })
    .meta({ id: "ShareChaincodeProposalResponse" }),
);
