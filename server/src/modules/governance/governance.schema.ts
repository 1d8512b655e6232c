import { z } from "zod";
import { dbId, lazySchema } from "../../http/schema-helpers.js";
import { configOperation, configOperationInput } from "../fabric-networks/fabric-networks.change.schema.js";

/** Schemas of /pro/networks/proposals* (upstream's pro.* shapes plus the product's additions). */

export const proposalIdParams = lazySchema(() =>
  z.object({ proposalId: z.string().min(1).max(64).describe("Proposal id") }),
);
export const signatureIdParams = lazySchema(() =>
  proposalIdParams.unwrap().extend({
    signatureId: z.coerce.number().int().positive().max(2_147_483_647).describe("Signature id"),
  }),
);
export const listProposalsQuery = lazySchema(() =>
  z.object({
    network_id: z.coerce
      .number()
      .int()
      .positive()
      .max(2_147_483_647)
      .optional()
      .describe("Only the proposals of this Fabric network"),
  }),
);

export const prepareBody = lazySchema(() =>
  z
    .object({
      network_id: dbId().describe("The Fabric network (channel) to change"),
      proposal_type: z.string().min(1).max(64).describe("Free-form kind of change, e.g. add_org"),
      operations: z
        .array(configOperationInput)
        .min(1)
        .max(50)
        .describe("The same operations as POST /networks/fabric/{id}/update-config"),
    })
    .meta({ id: "PrepareConfigUpdateRequest" }),
);

export const signatureResponse = lazySchema(() =>
  z
    .object({
      id: z.number().int().describe("Signature id"),
      proposal_id: z.string().describe("Proposal id"),
      msp_id: z.string().describe("The signing organization's MSP id"),
      signed_at: z.string().describe("When it was signed (or received)"),
      signed_by: z.string().describe("The user who signed here, or the node id of the console it came from"),
    })
    .meta({ id: "GovernanceSignatureResponse" }),
);

const policy = lazySchema(() =>
  z
    .object({
      rule: z
        .string()
        .describe("The mod_policies the update must meet, e.g. /Channel/Application/Admins: MAJORITY Admins"),
      required: z.number().int().describe("How many orgs must sign (the strictest policy)"),
      signed: z.array(z.string()).describe("MSP ids that signed and count toward it"),
      missing: z.array(z.string()).describe("MSP ids whose signatures are still missing"),
      satisfied: z.boolean().describe("Whether the signatures meet every policy, so it can be submitted"),
      summary: z.string().describe("e.g. '2 of 3 orgs signed'"),
    })
    .describe("Whether the channel's modification policy is met by the stored signatures"),
);

export const configChange = lazySchema(() =>
  z
    .object({
      kind: z.enum(["added", "removed", "changed"]).describe("added, removed or changed"),
      path: z
        .string()
        .describe("The element's path in the decoded config, e.g. channel_group.groups.Application.groups.Org2MSP"),
      before: z.string().optional().describe("The element before the update, shortened (removed and changed)"),
      after: z.string().optional().describe("The element after the update, shortened (added and changed)"),
    })
    .meta({ id: "GovernanceConfigChange" }),
);

export const proposalResponse = lazySchema(() =>
  z
    .object({
      id: z.string().describe("Proposal id"),
      network_id: z.number().int().describe("The local Fabric network; 0 when this console has none for the channel"),
      channel_name: z.string().describe("Channel"),
      proposal_type: z.string().describe("Kind of change"),
      status: z.enum(["pending", "stale", "submitted"]).describe("pending, stale (recompute it) or submitted"),
      operations: z.array(configOperation).describe("The operations"),
      preview_json: z.string().describe("The read/write-set delta (ConfigUpdate) as JSON"),
      diff: z
        .array(z.string())
        .describe("One line per change: '+ path' added, '- path' removed, '~ path: before -> after' changed"),
      changes: z.array(configChange).describe("What the update changes, element by element (the same as diff)"),
      config_sequence: z.number().int().describe("The channel config sequence the update was computed against"),
      stale: z.boolean().describe("The channel config changed since; it can't be submitted until recomputed"),
      origin_node_id: z.string().describe("Node id of the console that proposed it; empty when proposed here"),
      tx_id: z.string().describe("Submitted: the config update's transaction id"),
      created_at: z.string().describe("Created"),
      created_by: z.string().describe("Who proposed it"),
      signatures: z.array(signatureResponse).describe("Signatures collected"),
      policy,
    })
    .meta({ id: "GovernanceProposalResponse" }),
);

export const listProposalsResponse = lazySchema(() =>
  z.object({
    proposals: z.array(proposalResponse).describe("Proposals, newest first"),
    total: z.number().int().describe("How many"),
  }),
);
export const listSignaturesResponse = lazySchema(() =>
  z.object({
    signatures: z.array(signatureResponse).describe("Signatures"),
    total: z.number().int().describe("How many"),
  }),
);

export const signBody = lazySchema(() =>
  z.object({
    msp_id: z.string().min(1).max(100).describe("The org to sign as (its admin on this console)"),
  }),
);
export const signResponse = lazySchema(() =>
  z.object({
    id: z.number().int().describe("Signature id"),
    msp_id: z.string().describe("MSP id"),
    proposal_id: z.string().describe("Proposal id"),
    signed_at: z.string().describe("When"),
    signed_by: z.number().int().describe("Id of the user who signed"),
  }),
);

export const shareProposalBody = lazySchema(() =>
  z.object({
    connection_id: dbId().describe("Connected console (GET /node/connected-peers)"),
  }),
);
export const shareSignatureBody = lazySchema(() =>
  z.object({
    connection_id: dbId().describe("Connected console to send it to (the proposer's)"),
    signature_id: dbId().describe("The signature to send"),
  }),
);
export const okResponse = lazySchema(() => z.record(z.string(), z.boolean()).describe("{ success: true }"));

export const submitResponse = lazySchema(() =>
  z.object({
    proposal_id: z.string().describe("Proposal id"),
    tx_id: z.string().describe("Transaction id of the config update"),
  }),
);

export const governanceEvent = lazySchema(() =>
  z
    .object({
      id: z.string().describe("Event id"),
      proposal_id: z.string().describe("Proposal id"),
      event_type: z.string().describe("proposal_created, signature_added, proposal_shared, proposal_submitted, ..."),
      data: z.string().describe("JSON details"),
      created_at: z.string().describe("When"),
    })
    .meta({ id: "GovernanceEvent" }),
);
