import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import {
  governanceEvent,
  listProposalsQuery,
  listSignaturesResponse,
  listProposalsResponse,
  okResponse,
  prepareBody,
  proposalIdParams,
  proposalResponse,
  shareProposalBody,
  shareSignatureBody,
  signatureIdParams,
  signBody,
  signResponse,
  submitResponse,
} from "./governance.schema.js";
import type { GovernanceService } from "./governance.service.js";
import type { GovernanceSharing } from "./governance.share.js";

const tags = ["Governance"];
const BASE = "/pro/networks/proposals";

/** The operator's routes of channel config-update proposals (docs/governance.md). */
export function registerGovernanceRoutes(
  app: FastifyInstance,
  svc: GovernanceService,
  sharing: GovernanceSharing,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const by = (p: { username: string } | null | undefined): string => p?.username ?? "";

  r.post(
    BASE,
    {
      config: { access: "GOVERNANCE_MANAGE", audit: "governance.proposal_create" },
      schema: {
        operationId: "prepareConfigUpdate",
        tags,
        summary: "Compute a channel config update against the current config, as a proposal to be signed",
        body: prepareBody,
        response: { 200: proposalResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `network:${req.body.network_id}`;
      const p = await svc.create(req.body, by(req.principal));
      req.auditInfo.details = { proposal_id: p.id, operations: req.body.operations.map((o) => o.type) };
      return p;
    },
  );
  r.get(
    BASE,
    {
      config: { access: "GOVERNANCE_READ" },
      schema: {
        operationId: "listProposals",
        tags,
        summary: "Channel config-update proposals (proposed here or received)",
        querystring: listProposalsQuery,
        response: { 200: listProposalsResponse },
      },
    },
    async (req) => {
      const proposals = await svc.list(req.query.network_id);
      return { proposals, total: proposals.length };
    },
  );
  r.get(
    `${BASE}/:proposalId`,
    {
      config: { access: "GOVERNANCE_READ" },
      schema: {
        operationId: "getProposal",
        tags,
        summary:
          "A proposal with its operations, preview, signatures and policy status (marked stale when the channel moved on)",
        params: proposalIdParams,
        response: { 200: proposalResponse },
      },
    },
    async (req) => svc.get(req.params.proposalId),
  );
  r.get(
    `${BASE}/:proposalId/events`,
    {
      config: { access: "GOVERNANCE_READ" },
      schema: {
        operationId: "getProposalEvents",
        tags,
        summary: "The proposal's timeline",
        params: proposalIdParams,
        response: { 200: lazySchema(() => z.array(governanceEvent)) },
      },
    },
    async (req) => svc.events(req.params.proposalId),
  );
  r.get(
    `${BASE}/:proposalId/signatures`,
    {
      config: { access: "GOVERNANCE_READ" },
      schema: {
        operationId: "listProposalSignatures",
        tags,
        summary: "Signatures collected for a proposal",
        params: proposalIdParams,
        response: { 200: listSignaturesResponse },
      },
    },
    async (req) => {
      const signatures = await svc.signatures(req.params.proposalId);
      return { signatures, total: signatures.length };
    },
  );
  r.post(
    `${BASE}/:proposalId/sign`,
    {
      config: { access: "GOVERNANCE_MANAGE", audit: "governance.proposal_sign" },
      schema: {
        operationId: "signProposal",
        tags,
        summary: "Sign the update as an org admin held on this console",
        params: proposalIdParams,
        body: signBody,
        response: { 200: signResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `proposal:${req.params.proposalId}`;
      req.auditInfo.details = { msp_id: req.body.msp_id };
      const s = await svc.sign(req.params.proposalId, req.body.msp_id, by(req.principal));
      return {
        id: s.id,
        msp_id: s.msp_id,
        proposal_id: s.proposal_id,
        signed_at: s.created_at,
        signed_by: req.principal?.userId ?? 0,
      };
    },
  );
  r.delete(
    `${BASE}/:proposalId/signatures/:signatureId`,
    {
      config: { access: "GOVERNANCE_MANAGE", audit: "governance.signature_withdraw" },
      schema: {
        operationId: "withdrawProposalSignature",
        tags,
        summary: "Withdraw a signature before the proposal is submitted",
        params: signatureIdParams,
        response: { 200: okResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `proposal:${req.params.proposalId}`;
      const s = await svc.withdraw(req.params.proposalId, req.params.signatureId, by(req.principal));
      req.auditInfo.details = { signature_id: s.id, msp_id: s.msp_id };
      return { success: true };
    },
  );
  r.post(
    `${BASE}/:proposalId/recompute`,
    {
      config: { access: "GOVERNANCE_MANAGE", audit: "governance.proposal_recompute" },
      schema: {
        operationId: "recomputeProposal",
        tags,
        summary: "Recompute the update against the current config (a stale proposal); old signatures are void",
        params: proposalIdParams,
        response: { 200: proposalResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `proposal:${req.params.proposalId}`;
      return svc.recompute(req.params.proposalId, by(req.principal));
    },
  );
  r.post(
    `${BASE}/:proposalId/submit`,
    {
      config: { access: "GOVERNANCE_MANAGE", audit: "governance.proposal_submit" },
      schema: {
        operationId: "submitProposal",
        tags,
        summary: "Submit the update with the collected signatures, once the channel's modification policy is met",
        description:
          "400 names the orgs whose signatures are missing; 409 when the proposal is stale or already submitted.",
        params: proposalIdParams,
        response: { 200: submitResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `proposal:${req.params.proposalId}`;
      const res = await svc.submit(req.params.proposalId, by(req.principal));
      req.auditInfo.details = { tx_id: res.tx_id };
      return res;
    },
  );
  r.post(
    `${BASE}/:proposalId/share`,
    {
      config: { access: "GOVERNANCE_MANAGE", audit: "governance.proposal_share" },
      schema: {
        operationId: "shareProposal",
        tags,
        summary: "Send the proposal to a connected console, whose org admins can sign it",
        params: proposalIdParams,
        body: shareProposalBody,
        response: { 200: okResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `proposal:${req.params.proposalId}`;
      req.auditInfo.details = { connection_id: req.body.connection_id };
      await sharing.shareProposal(req.params.proposalId, req.body.connection_id, by(req.principal));
      return { success: true };
    },
  );
  r.post(
    `${BASE}/:proposalId/signatures/share`,
    {
      config: { access: "GOVERNANCE_MANAGE", audit: "governance.signature_share" },
      schema: {
        operationId: "shareProposalSignature",
        tags,
        summary: "Send a signature of this console's org to a connected console (the proposer)",
        params: proposalIdParams,
        body: shareSignatureBody,
        response: { 200: okResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `proposal:${req.params.proposalId}`;
      req.auditInfo.details = { connection_id: req.body.connection_id, signature_id: req.body.signature_id };
      await sharing.shareSignature(
        req.params.proposalId,
        req.body.signature_id,
        req.body.connection_id,
        by(req.principal),
      );
      return { success: true };
    },
  );
}
