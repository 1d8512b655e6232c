import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  acceptInvitationBody,
  acceptInvitationResponse,
  connectedPeersResponse,
  generateInvitationBody,
  identityResponse,
  invitationResponse,
  messageResponse,
  nodeIdParams,
  peerIdParams,
  peerNodesResponse,
  syncBody,
  syncResponse,
} from "./federation.schema.js";
import type { FederationService } from "./federation.service.js";
import type { ExternalNodesService } from "./external-nodes.service.js";

const tags = ["NodeSharing"];

/** The operator's /node/* routes: identity, invitations, connections, live nodes and sync (upstream's shapes). */
export function registerFederationRoutes(
  app: FastifyInstance,
  svc: FederationService,
  external: ExternalNodesService,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/node/identity",
    {
      config: { access: "FEDERATION_READ" },
      schema: {
        operationId: "getNodeIdentity",
        tags,
        summary: "This console's federation identity: node id, public key and endpoint",
        response: { 200: identityResponse },
      },
    },
    async () => svc.describe(),
  );
  r.post(
    "/node/generate-invitation",
    {
      config: { access: "FEDERATION_MANAGE", audit: "federation.invitation_create" },
      schema: {
        operationId: "generateNodeInvitation",
        tags,
        summary: "Generate a one-time invitation (a signed JWT) for another console",
        body: generateInvitationBody,
        response: { 200: invitationResponse },
      },
    },
    async (req) => {
      const inv = await svc.generateInvitation({
        bidirectional: req.body.bidirectional ?? true,
        expiresInHours: req.body.options?.expires_in_hours,
        createdBy: req.principal?.username ?? null,
      });
      req.auditInfo.resource = "federation_invitation";
      req.auditInfo.details = { expires_at: inv.expiresAt };
      return { invitation_jwt: inv.jwt };
    },
  );
  r.post(
    "/node/accept-invitation",
    {
      config: { access: "FEDERATION_MANAGE", audit: "federation.invitation_accept" },
      schema: {
        operationId: "acceptNodeInvitation",
        tags,
        summary: "Accept another console's invitation: both consoles register each other",
        body: acceptInvitationBody,
        response: { 200: acceptInvitationResponse },
      },
    },
    async (req) => {
      const res = await svc.acceptInvitation(req.body.invitation_jwt);
      req.auditInfo.resource = `federation_peer:${res.nodeId}`;
      req.auditInfo.details = { peer_endpoint: res.endpoint };
      return { success: true, message: res.message };
    },
  );
  r.get(
    "/node/connected-peers",
    {
      config: { access: "FEDERATION_READ" },
      schema: {
        operationId: "listConnectedPeers",
        tags,
        summary: "List connected consoles with their live status",
        response: { 200: connectedPeersResponse },
      },
    },
    async () => ({ connected_peers: await svc.listPeers() }),
  );
  r.delete(
    "/node/connected-peers/:node_id",
    {
      config: { access: "FEDERATION_MANAGE", audit: "federation.peer_disconnect" },
      schema: {
        operationId: "removeConnectedPeer",
        tags,
        summary: "Disconnect a console: it is told (best effort) and refused from now on, both ways",
        params: nodeIdParams,
        response: { 200: messageResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `federation_peer:${req.params.node_id}`;
      const res = await svc.disconnect(req.params.node_id);
      req.auditInfo.details = { notified: res.notified };
      return { message: res.message };
    },
  );
  r.get(
    "/node/connected-peers/:peer_id/nodes",
    {
      config: { access: "FEDERATION_READ" },
      schema: {
        operationId: "getExternalNodesForConnectedPeer",
        tags,
        summary: "Fetch a connected console's organizations and nodes now (not stored)",
        params: peerIdParams,
        response: { 200: peerNodesResponse },
      },
    },
    async (req) => external.live(req.params.peer_id),
  );
  r.post(
    "/node/sync-external-nodes",
    {
      config: { access: "FEDERATION_MANAGE", audit: "federation.sync" },
      schema: {
        operationId: "syncExternalNodes",
        tags,
        summary: "Pull a connected console's organizations and nodes into the external nodes",
        body: syncBody,
        response: { 200: syncResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `federation_peer:${req.body.peer_node_id}`;
      const res = await external.sync(req.body.peer_node_id);
      const { errors: _errors, ...counts } = res;
      req.auditInfo.details = counts;
      return res;
    },
  );
}
