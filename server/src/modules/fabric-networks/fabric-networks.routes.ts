import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { dbIdQuery, lazySchema } from "../../http/schema-helpers.js";
import {
  addNodeBody,
  createFabricNetworkBody,
  fabricNetworkResponse,
  importFabricNetworkBody,
  importFabricNetworkWithOrgBody,
  importNetworkResponse,
  listQuery,
  networkNodeResponse,
} from "./fabric-networks.schema.js";
import type { FabricNetworksService } from "./fabric-networks.service.js";

export const tags = ["Fabric Networks"];
const id = lazySchema(() => dbIdQuery());
export const idParams = lazySchema(() => z.object({ id: id.describe("Network id") }).strict());
const ordererParams = lazySchema(() =>
  z.object({ id: id.describe("Network id"), ordererId: id.describe("Orderer node id") }).strict(),
);
const peerParams = lazySchema(() =>
  z.object({ id: id.describe("Network id"), peerId: id.describe("Peer node id") }).strict(),
);

/** Fabric channels: create (genesis block), list, inspect the record, join and unjoin nodes. */
export function registerFabricNetworksRoutes(app: FastifyInstance, svc: FabricNetworksService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    "/networks/fabric",
    {
      config: { access: "NETWORK_READ" },
      schema: {
        operationId: "listFabricNetworks",
        tags,
        summary: "List Fabric networks",
        querystring: listQuery,
        response: {
          200: lazySchema(() =>
            z.object({
              networks: z.array(fabricNetworkResponse).describe("This page"),
              total: z.number().int().describe("Matching networks"),
            }),
          ),
        },
      },
    },
    async (req) => svc.list(req.query.limit, req.query.offset, req.query.name),
  );

  r.post(
    "/networks/fabric",
    {
      config: { access: "NETWORK_CREATE", audit: "fabric_network.create" },
      schema: {
        operationId: "createFabricNetwork",
        tags,
        summary: "Create a Fabric channel: validate the orgs and orderers, build and store the genesis block",
        description:
          "Does not join any node unless joinNodes is true; then joins run in the background and their progress shows in GET /networks/fabric/{id}/nodes.",
        body: createFabricNetworkBody,
        response: { 201: fabricNetworkResponse },
      },
    },
    async (req, reply) => {
      req.auditInfo.details = { name: req.body.name, consensusType: req.body.config.consensusType };
      const n = await svc.create(req.body);
      req.auditInfo.resource = `network:${n.id}`;
      return reply.status(201).send(n);
    },
  );

  r.post(
    "/networks/fabric/import",
    {
      config: { access: "NETWORK_CREATE", audit: "fabric_network.import" },
      schema: {
        operationId: "importFabricNetwork",
        tags,
        summary: "Import an existing channel from its genesis block (or a later config block)",
        description:
          "Creates the network record from the block; this console's orgs in the channel are matched by MSP id. Add nodes and join them next. Peers join from block 0: for a later block it is fetched from the channel's orderers.",
        body: importFabricNetworkBody,
        response: { 200: importNetworkResponse },
      },
    },
    async (req) => {
      const { row, response } = await svc.importBlock(req.body);
      req.auditInfo.resource = `network:${row.id}`;
      req.auditInfo.details = { name: row.name, source: "block" };
      return response;
    },
  );

  r.post(
    "/networks/fabric/import-with-org",
    {
      config: { access: "NETWORK_CREATE", audit: "fabric_network.import" },
      schema: {
        operationId: "importFabricNetworkWithOrg",
        tags,
        summary: "Import an existing channel by reading it from one of its orderers",
        description:
          "Reads block 0 and the newest config block over Deliver, signed by the admin of `organizationId` (which must be a member of the channel), and creates the network record.",
        body: importFabricNetworkWithOrgBody,
        response: { 200: importNetworkResponse },
      },
    },
    async (req) => {
      req.auditInfo.details = {
        channelId: req.body.channelId,
        ordererUrl: req.body.ordererUrl,
        externalOrdererId: req.body.externalOrdererId,
        organizationId: req.body.organizationId,
      };
      const { row, response } = await svc.importWithOrg(req.body);
      req.auditInfo.resource = `network:${row.id}`;
      return response;
    },
  );

  r.get(
    "/networks/fabric/:id",
    {
      config: { access: "NETWORK_READ" },
      schema: {
        operationId: "getFabricNetwork",
        tags,
        summary: "Get a Fabric network",
        params: idParams,
        response: { 200: fabricNetworkResponse },
      },
    },
    async (req) => svc.get(req.params.id),
  );

  r.delete(
    "/networks/fabric/:id",
    {
      config: { access: "NETWORK_DELETE", audit: "fabric_network.delete" },
      schema: {
        operationId: "deleteFabricNetwork",
        tags,
        summary: "Delete a Fabric network record (nodes keep their ledgers; unjoin orderers first to free them)",
        params: idParams,
        response: { 204: lazySchema(() => z.null().describe("Deleted")) },
      },
    },
    async (req, reply) => {
      req.auditInfo.resource = `network:${req.params.id}`;
      const row = await svc.remove(req.params.id);
      req.auditInfo.details = { name: row.name };
      return reply.status(204).send(null);
    },
  );

  r.get(
    "/networks/fabric/by-name/:name",
    {
      config: { access: "NETWORK_READ" },
      schema: {
        operationId: "getFabricNetworkByName",
        tags,
        summary: "Get a Fabric network by its channel name",
        params: lazySchema(() => z.object({ name: z.string().min(1).max(249).describe("Channel name") }).strict()),
        response: { 200: fabricNetworkResponse },
      },
    },
    async (req) => svc.getByName(req.params.name),
  );

  const removeNode =
    (role: "peer" | "orderer") =>
    async (req: { params: unknown; auditInfo: { resource?: string; details?: Record<string, unknown> } }) => {
      const p = req.params as { id: number; peerId?: number; ordererId?: number };
      const nodeId = (p.peerId ?? p.ordererId) as number;
      req.auditInfo.resource = `network:${p.id}`;
      req.auditInfo.details = { nodeId };
      return svc.respond(await svc.removeNode(p.id, nodeId, role));
    };
  r.delete(
    "/networks/fabric/:id/peers/:peerId",
    {
      config: { access: "NETWORK_UPDATE", audit: "fabric_network.remove_peer" },
      schema: {
        operationId: "removeFabricPeer",
        tags,
        summary: "Take a peer out of the network (it leaves the channel first when it has joined)",
        params: lazySchema(() =>
          z
            .object({ id: idParams.unwrap().shape.id, peerId: idParams.unwrap().shape.id.describe("Peer node id") })
            .strict(),
        ),
        response: { 200: fabricNetworkResponse },
      },
    },
    removeNode("peer"),
  );
  r.delete(
    "/networks/fabric/:id/orderers/:ordererId",
    {
      config: { access: "NETWORK_UPDATE", audit: "fabric_network.remove_orderer" },
      schema: {
        operationId: "removeFabricOrderer",
        tags,
        summary: "Take an orderer out of the network (it leaves the channel through osnadmin first when it has joined)",
        description:
          "An orderer that is still one of the channel's consenters is refused (409): remove it from the consenter set first (update-config, remove_consenter). A joined orderer that is not running is refused too (start it so it can leave).",
        params: lazySchema(() =>
          z
            .object({
              id: idParams.unwrap().shape.id,
              ordererId: idParams.unwrap().shape.id.describe("Orderer node id"),
            })
            .strict(),
        ),
        response: { 200: fabricNetworkResponse },
      },
    },
    removeNode("orderer"),
  );

  r.get(
    "/networks/fabric/:id/nodes",
    {
      config: { access: "NETWORK_READ" },
      schema: {
        operationId: "getFabricNetworkNodes",
        tags,
        summary: "The network's nodes and where each join stands",
        params: idParams,
        response: { 200: lazySchema(() => z.object({ nodes: z.array(networkNodeResponse).describe("Members") })) },
      },
    },
    async (req) => svc.nodes(req.params.id),
  );

  r.post(
    "/networks/fabric/:id/nodes",
    {
      config: { access: "NETWORK_UPDATE", audit: "fabric_network.add_node" },
      schema: {
        operationId: "addFabricNetworkNode",
        tags,
        summary: "Add a node to the network record (pending; join it next)",
        params: idParams,
        body: addNodeBody,
        response: { 200: fabricNetworkResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `network:${req.params.id}`;
      req.auditInfo.details = { nodeId: req.body.nodeId, role: req.body.role };
      return svc.addNode(req.params.id, req.body.nodeId, req.body.role);
    },
  );

  const membership = [
    ["orderers", "ordererId", "join", "joinFabricOrderer", "fabric_network.join_orderer", "Join an orderer (osnadmin)"],
    [
      "orderers",
      "ordererId",
      "unjoin",
      "unjoinFabricOrderer",
      "fabric_network.unjoin_orderer",
      "Remove the channel from an orderer (osnadmin)",
    ],
    [
      "peers",
      "peerId",
      "join",
      "joinFabricPeer",
      "fabric_network.join_peer",
      "Join a peer (CSCC JoinChain with the genesis block)",
    ],
    [
      "peers",
      "peerId",
      "unjoin",
      "unjoinFabricPeer",
      "fabric_network.unjoin_peer",
      "Remove the channel from a peer: the peer is stopped, `peer node unjoin` drops the channel's ledger, and the peer is started again",
    ],
  ] as const;
  for (const [kind, param, verb, operationId, audit, summary] of membership) {
    r.post(
      `/networks/fabric/:id/${kind}/:${param}/${verb}`,
      {
        config: { access: "NETWORK_UPDATE", audit },
        schema: {
          operationId,
          tags,
          summary,
          params: kind === "orderers" ? ordererParams : peerParams,
          response: { 200: fabricNetworkResponse },
        },
      },
      async (req) => {
        const p = req.params as { id: number; ordererId?: number; peerId?: number };
        const nodeId = (p.ordererId ?? p.peerId) as number;
        req.auditInfo.resource = `network:${p.id}`;
        req.auditInfo.details = { nodeId };
        const fn =
          kind === "orderers"
            ? verb === "join"
              ? svc.joinOrderer
              : svc.unjoinOrderer
            : verb === "join"
              ? svc.joinPeer
              : svc.unjoinPeer;
        return svc.respond(await fn(p.id, nodeId));
      },
    );
  }
}
