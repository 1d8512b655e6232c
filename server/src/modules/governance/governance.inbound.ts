import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import { configOperation } from "../fabric-networks/fabric-networks.change.schema.js";
import { signatureHeaders, type SignedRoutes } from "../federation/federation.inbound.routes.js";
import type { GovernanceSharing } from "./governance.share.js";
import { chaincodeProposalWire, MAX_CC_WIRE_BYTES } from "./chaincode-proposals.wire.js";

/** What the inbound routes need of the chaincode-proposal service. */
export interface ChaincodeProposalReceiver {
  receive(from: string, body: z.infer<typeof chaincodeProposalWire>): Promise<{ proposal_id: string }>;
}

/** The signed console-to-console paths of governance. */
export const GOVERNANCE_PATHS = {
  proposal: "/federation/governance/proposals",
  signature: "/federation/governance/signatures",
  status: "/federation/governance/status",
  withdraw: "/federation/governance/signatures/withdraw",
  chaincode: "/federation/governance/chaincode-proposals",
} as const;

const b64 = lazySchema(() =>
  z
    .string()
    .min(1)
    .max(8_000_000)
    .regex(/^[A-Za-z0-9+/=]+$/, "must be base64"),
);
export const proposalWire = lazySchema(() =>
  z.object({
    proposal_id: z.string().min(1).max(64).describe("The proposer's proposal id"),
    channel_name: z.string().min(1).max(249).describe("Channel"),
    proposal_type: z.string().min(1).max(64).describe("Kind of change"),
    operations: z.array(configOperation).max(50).describe("The operations (shown to the signers)"),
    update_b64: b64.describe("The marshalled ConfigUpdate every signature covers"),
    config_b64: b64.describe("The channel config it was computed against"),
    config_sequence: z.number().int().min(0).describe("That config's sequence"),
    preview_json: z.string().max(8_000_000).describe("The read/write sets as JSON"),
    created_by: z.string().max(255).describe("Who proposed it"),
  }),
);
export const signatureWire = lazySchema(() =>
  z.object({
    proposal_id: z.string().min(1).max(64).describe("The proposal id on the RECEIVING console (the proposer's)"),
    msp_id: z.string().min(1).max(100).describe("The signing org"),
    signature_header_b64: b64.describe("ConfigSignature.signature_header"),
    signature_b64: b64.describe("ConfigSignature.signature"),
    signed_by: z.string().max(255).describe("Who signed on the sending console"),
  }),
);
export const statusWire = lazySchema(() =>
  z.object({
    proposal_id: z.string().min(1).max(64).describe("The proposer's proposal id"),
    status: z.literal("submitted").describe("What happened to it"),
    tx_id: z.string().min(1).max(128).describe("The config update's transaction id"),
  }),
);
export const withdrawWire = lazySchema(() =>
  z.object({
    proposal_id: z.string().min(1).max(64).describe("The proposal id on the RECEIVING console (the proposer's)"),
    msp_id: z.string().min(1).max(100).describe("The org whose signature the sending console sent and now withdraws"),
  }),
);
const withdrawAck = lazySchema(() =>
  z.object({
    proposal_id: z.string().describe("The proposal id on this console"),
    withdrawn: z.boolean().describe("The signature was deleted"),
  }),
);
const ack = lazySchema(() => z.object({ proposal_id: z.string().describe("The proposal id on this console") }));

/** The signed routes other consoles deliver proposals and signatures on. */
export function governanceInboundRoutes(
  sharing: GovernanceSharing,
  chaincode: ChaincodeProposalReceiver,
): SignedRoutes {
  return (f: FastifyInstance, sender: (req: FastifyRequest) => string) => {
    const r = f.withTypeProvider<ZodTypeProvider>();
    r.post(
      GOVERNANCE_PATHS.proposal,
      {
        config: { access: "public", audit: "governance.proposal_received" },
        schema: {
          operationId: "federationReceiveProposal",
          tags: ["Federation"],
          summary: "Console to console: a channel config-update proposal to sign (signed)",
          headers: signatureHeaders,
          body: proposalWire,
          response: { 200: ack },
        },
      },
      async (req) => {
        req.auditInfo.resource = `proposal:${req.body.proposal_id}`;
        return sharing.receiveProposal(sender(req), req.body);
      },
    );
    r.post(
      GOVERNANCE_PATHS.signature,
      {
        config: { access: "public", audit: "governance.signature_received" },
        schema: {
          operationId: "federationReceiveSignature",
          tags: ["Federation"],
          summary: "Console to console: an org admin's signature of a proposal, verified before it is stored (signed)",
          headers: signatureHeaders,
          body: signatureWire,
          response: { 200: ack },
        },
      },
      async (req) => {
        req.auditInfo.resource = `proposal:${req.body.proposal_id}`;
        req.auditInfo.details = { msp_id: req.body.msp_id };
        return sharing.receiveSignature(sender(req), req.body);
      },
    );
    r.post(
      GOVERNANCE_PATHS.status,
      {
        config: { access: "public", audit: "governance.proposal_status_received" },
        schema: {
          operationId: "federationReceiveProposalStatus",
          tags: ["Federation"],
          summary: "Console to console: the proposer submitted a proposal this console received (signed)",
          headers: signatureHeaders,
          body: statusWire,
          response: { 200: ack },
        },
      },
      async (req) => {
        req.auditInfo.resource = `proposal:${req.body.proposal_id}`;
        req.auditInfo.details = { tx_id: req.body.tx_id };
        return sharing.receiveStatus(sender(req), req.body);
      },
    );
    r.post(
      GOVERNANCE_PATHS.withdraw,
      {
        config: { access: "public", audit: "governance.signature_withdraw_received" },
        schema: {
          operationId: "federationWithdrawSignature",
          tags: ["Federation"],
          summary:
            "Console to console: the console that sent an org's signature withdraws it before submission (signed)",
          description:
            "403 when the signature was not sent by the calling console; 409 when the proposal is already submitted.",
          headers: signatureHeaders,
          body: withdrawWire,
          response: { 200: withdrawAck },
        },
      },
      async (req) => {
        req.auditInfo.resource = `proposal:${req.body.proposal_id}`;
        req.auditInfo.details = { msp_id: req.body.msp_id };
        return sharing.receiveWithdraw(sender(req), req.body);
      },
    );
    r.post(
      GOVERNANCE_PATHS.chaincode,
      {
        // The source archive travels inside the JSON (base64): above the federation default.
        bodyLimit: MAX_CC_WIRE_BYTES,
        config: { access: "public", audit: "governance.chaincode_proposal_received" },
        schema: {
          operationId: "federationReceiveChaincodeProposal",
          tags: ["Federation"],
          summary: "Console to console: a chaincode definition proposal with its source archive (signed)",
          headers: signatureHeaders,
          body: chaincodeProposalWire,
          response: { 200: ack },
        },
      },
      async (req) => {
        req.auditInfo.resource = `chaincode_proposal:${req.body.def_id}`;
        req.auditInfo.details = { name: req.body.name, version: req.body.version, sequence: req.body.sequence };
        const res = await chaincode.receive(sender(req), req.body);
        req.auditInfo.details = { ...req.auditInfo.details, proposal_id: res.proposal_id };
        return res;
      },
    );
  };
}
