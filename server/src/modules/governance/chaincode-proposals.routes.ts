import { readFile } from "node:fs/promises";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import { assertHostCommandAllowed } from "../../http/host-command.js";
import { inspectArchive } from "../fabric-chaincodes/source-policy.js";
import {
  chaincodeDefinitionWithChaincode,
  chaincodeProposal,
  chaincodeProposalIdParams,
  createChaincodeProposalBody,
  listChaincodeProposalsQuery,
  shareChaincodeProposalBody,
  shareChaincodeProposalResponse,
} from "./chaincode-proposals.schema.js";

const tags = ["Governance"];
const BASE = "/pro/chaincodes/proposals";

export type ChaincodeProposal = z.infer<typeof chaincodeProposal>;
export type ChaincodeDefinitionWithChaincode = z.infer<typeof chaincodeDefinitionWithChaincode>;

/** What the routes need of the chaincode-proposal service (docs/governance.md, "Chaincode proposals"). */
export interface ChaincodeProposalApi {
  create(body: z.infer<typeof createChaincodeProposalBody>, user: string): Promise<ChaincodeProposal>;
  list(networkId?: number): Promise<ChaincodeProposal[]>;
  get(id: number): Promise<ChaincodeDefinitionWithChaincode>;
  share(id: number, recipients: number[], user: string): Promise<z.infer<typeof shareChaincodeProposalResponse>>;
  accept(id: number, user: string): Promise<ChaincodeDefinitionWithChaincode>;
  /** The stored proposal: its source type and the archive a connected console sent. */
  row(id: number): Promise<{ source_type: string; source_archive: string | null }>;
}

/**
 * Accepting runs the code a connected console sent: a prebuilt executable (declared, or an archive
 * holding a single one) is a host command, an admin's call (HOST_COMMAND), as it is for a local
 * definition; a package.json with an npm install script is refused for everyone (400).
 */
async function checkProposalSource(
  req: FastifyRequest,
  p: { source_type: string; source_archive: string | null },
): Promise<void> {
  if (!p.source_archive) return;
  const what = "accepting a chaincode that is a prebuilt executable";
  if (p.source_type === "executable") return assertHostCommandAllowed(req, "sourceType", what);
  if (p.source_type === "go") return;
  if ((await inspectArchive(await readFile(p.source_archive))) === "executable")
    assertHostCommandAllowed(req, "sourceType", what);
}

/** The operator's routes of chaincode-definition proposals. */
export function registerChaincodeProposalRoutes(app: FastifyInstance, svc: ChaincodeProposalApi): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const by = (p: { username: string } | null | undefined): string => p?.username ?? "";

  r.post(
    BASE,
    {
      config: { access: "GOVERNANCE_MANAGE", audit: "governance.chaincode_proposal_create" },
      schema: {
        operationId: "createChaincodeProposal",
        tags,
        summary: "Propose a chaincode definition to the consortium",
        body: createChaincodeProposalBody,
        response: { 201: chaincodeProposal },
      },
    },
    async (req, reply) => {
      req.auditInfo.resource = `network:${req.body.network_id}`;
      const p = await svc.create(req.body, by(req.principal));
      req.auditInfo.details = { proposal_id: p.id, name: p.name, version: p.version, sequence: p.sequence };
      return reply.code(201).send(p);
    },
  );
  r.get(
    BASE,
    {
      config: { access: "GOVERNANCE_READ" },
      schema: {
        operationId: "listChaincodeProposals",
        tags,
        summary: "Chaincode proposals (proposed here or received), newest first",
        querystring: listChaincodeProposalsQuery,
        response: { 200: lazySchema(() => z.array(chaincodeProposal)) },
      },
    },
    async (req) => svc.list(req.query.network_id),
  );
  r.get(
    `${BASE}/:proposalId`,
    {
      config: { access: "GOVERNANCE_READ" },
      schema: {
        operationId: "getChaincodeProposal",
        tags,
        summary: "A chaincode proposal with its local chaincode and definition, and each org's approval",
        params: chaincodeProposalIdParams,
        response: { 200: chaincodeDefinitionWithChaincode },
      },
    },
    async (req) => svc.get(req.params.proposalId),
  );
  r.post(
    `${BASE}/:proposalId/share`,
    {
      config: { access: "GOVERNANCE_MANAGE", audit: "governance.chaincode_proposal_share" },
      schema: {
        operationId: "shareChaincodeProposal",
        tags,
        summary: "Send the proposal (definition and source) to connected consoles",
        params: chaincodeProposalIdParams,
        body: shareChaincodeProposalBody,
        response: { 200: shareChaincodeProposalResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `chaincode_proposal:${req.params.proposalId}`;
      req.auditInfo.details = { recipients: req.body.recipients };
      return svc.share(req.params.proposalId, req.body.recipients, by(req.principal));
    },
  );
  r.post(
    `${BASE}/:proposalId/accept`,
    {
      config: { access: "GOVERNANCE_MANAGE", audit: "governance.chaincode_proposal_accept" },
      schema: {
        operationId: "acceptChaincodeProposal",
        tags,
        summary:
          "Create the definition here and install and approve it for this console's orgs (build, install, chaincode server, approve)",
        description:
          "A prebuilt executable (declared or detected in the archive) needs HOST_COMMAND (admins): 403 for others. " +
          "An archive whose package.json has an npm install script: 400 naming it.",
        params: chaincodeProposalIdParams,
        response: { 200: chaincodeDefinitionWithChaincode },
      },
    },
    async (req) => {
      req.auditInfo.resource = `chaincode_proposal:${req.params.proposalId}`;
      await checkProposalSource(req, await svc.row(req.params.proposalId));
      return svc.accept(req.params.proposalId, by(req.principal));
    },
  );
}
