import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { ChaincodeSharing } from "./chaincode-sharing.js";
import type { UpstreamNodeService } from "./upstream.service.js";
import type { createConfigProposalSharing } from "./upstream.share.js";
import {
  chaincodeShareBody,
  chaincodeShareResponse,
  configProposalShareBody,
  configProposalShareResponse,
  registerPeerBody,
  registerPeerResponse,
  sharedChaincodeDetail,
  sharedChaincodeList,
  sharedChaincodeParams,
  sharedChaincodesQuery,
} from "./upstream.schema.js";
import { nodeJwk } from "./upstream.wire.js";

const tags = ["Federation"];

/**
 * upstream's operator-facing routes of the second route set (docs/federation-upstream.md): the JWK,
 * registering a peer (admin-only: a new destination), and sharing chaincode definitions and
 * config-update proposals through the existing sharing code.
 */
export function registerUpstreamRoutes(
  app: FastifyInstance,
  svc: {
    node: UpstreamNodeService;
    chaincodes: ChaincodeSharing;
    proposals: ReturnType<typeof createConfigProposalSharing>;
    myNodeId: () => Promise<string>;
  },
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/.well-known/node_jwk.json",
    {
      config: { access: "public" },
      schema: {
        operationId: "getNodePublicKeyJWK",
        tags,
        summary: "This console's Ed25519 public key as a JWK (kid = node id; public material only)",
        response: { 200: nodeJwk },
      },
    },
    async () => svc.node.jwk(),
  );
  r.post(
    "/node/register-peer",
    {
      config: { access: "FEDERATION_REGISTER", audit: "federation.peer_register" },
      schema: {
        operationId: "registerPeerNode",
        tags,
        summary: "Register a console by its public key and endpoint, without an invitation (admins only)",
        description:
          "The node id is derived from the key. Signed requests from that key are accepted from then on, and this console sends to that endpoint: an admin's decision (ARCHITECTURE.md decision 52).",
        body: registerPeerBody,
        response: { 200: registerPeerResponse },
      },
    },
    async (req) => {
      req.auditInfo.details = { peer_endpoint: req.body.peer_endpoint };
      const res = await svc.node.registerPeer(req.body);
      req.auditInfo.resource = `federation_peer:${res.node_id}`;
      return res;
    },
  );
  r.post(
    "/pro/sharing/chaincode",
    {
      config: { access: "FEDERATION_MANAGE", audit: "federation.share_chaincode" },
      schema: {
        operationId: "shareChaincode",
        tags: ["Sharing"],
        summary: "Send a chaincode definition (name, channel, version, sequence, image) to connected consoles",
        description:
          "A revoked or unreachable recipient fails alone (see results); when all fail the share is stored as failed and the answer is 502.",
        body: chaincodeShareBody,
        response: { 201: chaincodeShareResponse },
      },
    },
    async (req, reply) => {
      req.auditInfo.resource = `chaincode:${req.body.chaincodeId}`;
      req.auditInfo.details = {
        version: req.body.version,
        sequence: req.body.sequence,
        recipients: req.body.recipients,
      };
      const res = await svc.chaincodes.share(req.body, req.principal?.username ?? null);
      req.auditInfo.details = { ...req.auditInfo.details, share_id: res.shareId };
      return reply.status(201).send(res);
    },
  );
  r.post(
    "/pro/sharing/config-proposal",
    {
      config: { access: "GOVERNANCE_MANAGE", audit: "governance.proposal_share" },
      schema: {
        operationId: "shareConfigProposal",
        tags: ["Sharing"],
        summary: "Send a config-update proposal of this console to connected consoles",
        description:
          "The same send as POST /pro/networks/proposals/{proposalId}/share, to each recipient; a failing recipient fails alone, all failing is a 502.",
        body: configProposalShareBody,
        response: { 201: configProposalShareResponse },
      },
    },
    async (req, reply) => {
      req.auditInfo.resource = `proposal:${req.body.proposalId}`;
      req.auditInfo.details = { recipients: req.body.recipients };
      const by = req.principal?.username ?? "";
      return reply.status(201).send(await svc.proposals.share(req.body, by));
    },
  );
  r.get(
    "/pro/shared-chaincodes",
    {
      config: { access: "FEDERATION_READ" },
      schema: {
        operationId: "listSharedChaincodes",
        tags: ["Sharing"],
        summary: "Chaincode definitions shared with this console and by it, newest first",
        querystring: sharedChaincodesQuery,
        response: { 200: sharedChaincodeList },
      },
    },
    async (req) => ({ chaincodes: await svc.chaincodes.list(await svc.myNodeId(), req.query.direction) }),
  );
  r.get(
    "/pro/shared-chaincodes/:chaincodeId",
    {
      config: { access: "FEDERATION_READ" },
      schema: {
        operationId: "getSharedChaincode",
        tags: ["Sharing"],
        summary: "One shared chaincode definition, by share id",
        params: sharedChaincodeParams,
        response: { 200: sharedChaincodeDetail },
      },
    },
    async (req) => ({ chaincode: await svc.chaincodes.get(await svc.myNodeId(), req.params.chaincodeId) }),
  );
}
