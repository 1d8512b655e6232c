import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import type { KeySharing } from "./key-sharing.js";
import type { NetworkShares } from "./sharing.receive.js";
import {
  acceptSharedNetworkResponse,
  keyShareBody,
  keyShareResponse,
  keysSharedQuery,
  keysSharedResponse,
  networkShareBody,
  networkShareResponse,
  rejectSharedNetworkResponse,
  shareIdParams,
  sharedNetworkDetail,
  sharedNetworkList,
  sharedNetworksQuery,
} from "./sharing.schema.js";
import type { NetworkShareSender } from "./sharing.send.js";

const tags = ["Sharing"];

/** Upstream's /pro/sharing/*, /pro/shared-networks* and /pro/keys/shared-with-me (docs/federation.md, "Sharing"). */
export function registerSharingRoutes(
  app: FastifyInstance,
  svc: { sender: NetworkShareSender; shares: NetworkShares; keys: KeySharing },
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const [url, platform, operationId] of [
    ["/pro/sharing/network", "fabric", "shareNetwork"],
    ["/pro/sharing/besu-network", "besu", "shareBesuNetwork"],
  ] as const) {
    r.post(
      url,
      {
        config: { access: "FEDERATION_MANAGE", audit: "federation.share_network" },
        schema: {
          operationId,
          tags,
          summary: `Send a ${platform === "fabric" ? "Fabric network (block 0 and its orderers)" : "Besu network (genesis and bootnodes)"} to connected consoles`,
          description:
            "Each recipient gets the share as pending and accepts or rejects it. A revoked or unreachable recipient fails alone (see results); when all fail the share is stored as failed and the answer is 502.",
          body: networkShareBody,
          response: { 201: networkShareResponse },
        },
      },
      async (req, reply) => {
        req.auditInfo.resource = `network:${req.body.networkId}`;
        req.auditInfo.details = { platform, recipients: req.body.recipients };
        const { response } = await svc.sender.share(platform, req.body, req.principal?.username ?? null);
        req.auditInfo.details = {
          platform,
          share_id: response.shareId,
          recipients: req.body.recipients,
          sent: response.results.filter((x) => x.status === "sent").length,
        };
        return reply.status(201).send(response);
      },
    );
  }
  r.get(
    "/pro/shared-networks",
    {
      config: { access: "FEDERATION_READ" },
      schema: {
        operationId: "listSharedNetworks",
        tags,
        summary: "Networks shared with this console and by it, newest first",
        querystring: sharedNetworksQuery,
        response: { 200: sharedNetworkList },
      },
    },
    async (req) => ({ networks: await svc.shares.list(req.query.direction) }),
  );
  r.get(
    "/pro/shared-networks/:shareId",
    {
      config: { access: "FEDERATION_READ" },
      schema: {
        operationId: "getSharedNetwork",
        tags,
        summary: "One shared network, by share id",
        description:
          "Upstream names this path parameter networkId; it shares the path with DELETE, so it is the share id here.",
        params: shareIdParams,
        response: { 200: sharedNetworkDetail },
      },
    },
    async (req) => ({ network: await svc.shares.get(req.params.shareId) }),
  );
  r.delete(
    "/pro/shared-networks/:shareId",
    {
      config: { access: "FEDERATION_MANAGE", audit: "federation.shared_network_delete" },
      schema: {
        operationId: "deleteSharedNetwork",
        tags,
        summary: "Delete a share record (an accepted share's imported network stays)",
        params: shareIdParams,
        response: { 204: lazySchema(() => z.null().describe("Deleted")) },
      },
    },
    async (req, reply) => {
      req.auditInfo.resource = `federation_share:${req.params.shareId}`;
      const row = await svc.shares.remove(req.params.shareId);
      req.auditInfo.details = { direction: row.direction, status: row.status, name: row.name };
      return reply.status(204).send(null);
    },
  );
  r.post(
    "/pro/shared-networks/:shareId/accept",
    {
      config: { access: "FEDERATION_MANAGE", audit: "federation.shared_network_accept" },
      schema: {
        operationId: "acceptSharedNetwork",
        tags,
        summary: "Accept a received network: it is imported here so this console's nodes can join it",
        params: shareIdParams,
        response: { 200: acceptSharedNetworkResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `federation_share:${req.params.shareId}`;
      const { networkId, row } = await svc.shares.accept(req.params.shareId);
      req.auditInfo.details = { network_id: networkId, name: row.name, platform: row.platform };
      return { networkId, status: "accepted" as const };
    },
  );
  r.post(
    "/pro/shared-networks/:shareId/reject",
    {
      config: { access: "FEDERATION_MANAGE", audit: "federation.shared_network_reject" },
      schema: {
        operationId: "rejectSharedNetwork",
        tags,
        summary: "Reject a received network",
        params: shareIdParams,
        response: { 200: rejectSharedNetworkResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `federation_share:${req.params.shareId}`;
      const row = await svc.shares.reject(req.params.shareId);
      req.auditInfo.details = { name: row.name, platform: row.platform };
      return { status: "rejected" as const };
    },
  );
  r.post(
    "/pro/sharing/key",
    {
      config: { access: "FEDERATION_MANAGE", audit: "federation.share_key" },
      schema: {
        operationId: "shareKey",
        tags,
        summary: "Send a key's public part (never private material) to a connected console",
        body: keyShareBody,
        response: { 201: keyShareResponse },
      },
    },
    async (req, reply) => {
      req.auditInfo.resource = `key:${req.body.key_id}`;
      req.auditInfo.details = { peer_id: req.body.peer_id };
      const res = await svc.keys.share(req.body, req.principal?.username ?? null);
      req.auditInfo.details = { peer_id: req.body.peer_id, share_id: res.share_id, expires_at: res.expires_at };
      return reply.status(201).send(res);
    },
  );
  r.get(
    "/pro/keys/shared-with-me",
    {
      config: { access: "FEDERATION_READ" },
      schema: {
        operationId: "getKeysSharedWithMe",
        tags,
        summary: "Public keys connected consoles shared with this one",
        querystring: keysSharedQuery,
        response: { 200: keysSharedResponse },
      },
    },
    async (req) =>
      svc.keys.list({
        status: req.query.status,
        expired: req.query.expired === undefined ? undefined : req.query.expired === "true",
        limit: req.query.limit,
        offset: req.query.offset,
      }),
  );
}
