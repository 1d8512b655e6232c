import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { idPathParams, lazySchema } from "../../http/schema-helpers.js";
import {
  besuNetworkResponse,
  createBesuNetworkBody,
  importBesuNetworkBody,
  listQuery,
} from "./besu-networks.schema.js";
import type { BesuNetworksService } from "./besu-networks.service.js";

const tags = ["Besu Networks"];
const idParams = idPathParams("Network id");

/** QBFT networks: create from parameters, import from a genesis file, inspect, delete. */
export function registerBesuNetworksRoutes(app: FastifyInstance, svc: BesuNetworksService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    "/networks/besu",
    {
      config: { access: "NETWORK_READ" },
      schema: {
        operationId: "listBesuNetworks",
        tags,
        summary: "List Besu networks",
        querystring: listQuery,
        response: {
          200: lazySchema(() =>
            z.object({
              networks: z.array(besuNetworkResponse).describe("This page"),
              total: z.number().int().describe("Matching networks"),
            }),
          ),
        },
      },
    },
    async (req) => svc.list(req.query.limit, req.query.offset, req.query.name),
  );

  r.post(
    "/networks/besu",
    {
      config: { access: "NETWORK_CREATE", audit: "besu_network.create" },
      schema: {
        operationId: "createBesuNetwork",
        tags,
        summary: "Create a QBFT network: validators, genesis and extraData",
        body: createBesuNetworkBody,
        response: { 200: besuNetworkResponse },
      },
    },
    async (req) => {
      req.auditInfo.details = { name: req.body.name, chainId: req.body.config.chainId };
      const n = await svc.create(req.body);
      req.auditInfo.resource = `network:${n.id}`;
      return n;
    },
  );

  r.post(
    "/networks/besu/import",
    {
      config: { access: "NETWORK_CREATE", audit: "besu_network.import" },
      schema: {
        operationId: "importBesuNetwork",
        tags,
        summary: "Import a Besu network from its genesis file",
        body: importBesuNetworkBody,
        response: {
          200: lazySchema(() =>
            z.object({
              message: z.string().describe("Result"),
              networkId: z.number().int().describe("New network id"),
            }),
          ),
        },
      },
    },
    async (req) => {
      req.auditInfo.details = { name: req.body.name };
      const res = await svc.import(req.body);
      req.auditInfo.resource = `network:${res.networkId}`;
      return res;
    },
  );

  r.get(
    "/networks/besu/:id",
    {
      config: { access: "NETWORK_READ" },
      schema: {
        operationId: "getBesuNetwork",
        tags,
        summary: "Get a Besu network",
        params: idParams,
        response: { 200: besuNetworkResponse },
      },
    },
    async (req) => svc.get(req.params.id),
  );

  r.delete(
    "/networks/besu/:id",
    {
      config: { access: "NETWORK_DELETE", audit: "besu_network.delete" },
      schema: {
        operationId: "deleteBesuNetwork",
        tags,
        summary: "Delete a Besu network",
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
}
