import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import {
  anchorPeersBody,
  orgCrlBody,
  transactionIdResponse,
  updateConfigBody,
  updateConfigResponse,
} from "./fabric-networks.change.schema.js";
import type { FabricChange } from "./fabric-networks.change.js";
import {
  blockDto,
  blocksQuery,
  chainInfoResponse,
  channelConfigResponse,
  networkMapResponse,
} from "./fabric-networks.inspect.schema.js";
import type { FabricInspect } from "./fabric-networks.inspect.js";
import { idParams, tags } from "./fabric-networks.routes.js";

const blockParams = lazySchema(() =>
  z
    .object({
      id: idParams.unwrap().shape.id,
      blockNum: z.coerce
        .number()
        .int()
        .min(0)
        .max(2 ** 53 - 1)
        .describe("Block number"),
    })
    .strict(),
);

/** Reading a channel through its joined nodes, and changing its config by signed updates. */
export function registerFabricChannelRoutes(app: FastifyInstance, inspect: FabricInspect, change: FabricChange): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    "/networks/fabric/:id/info",
    {
      config: { access: "NETWORK_READ" },
      schema: {
        operationId: "getChainInfo",
        tags,
        summary: "Chain height and newest hashes, from a joined peer (QSCC) or orderer (Deliver)",
        params: idParams,
        response: { 200: chainInfoResponse },
      },
    },
    async (req) => inspect.info(req.params.id),
  );

  r.get(
    "/networks/fabric/:id/blocks",
    {
      config: { access: "NETWORK_READ" },
      schema: {
        operationId: "getFabricBlocks",
        tags,
        summary: "Blocks, decoded, newest first by default",
        params: idParams,
        querystring: blocksQuery,
        response: {
          200: lazySchema(() =>
            z.object({
              blocks: z.array(blockDto).describe("This page"),
              total: z.number().int().describe("Chain height"),
            }),
          ),
        },
      },
    },
    async (req) => inspect.blocks(req.params.id, req.query.limit, req.query.offset, req.query.reverse),
  );

  r.get(
    "/networks/fabric/:id/blocks/:blockNum",
    {
      config: { access: "NETWORK_READ" },
      schema: {
        operationId: "getFabricBlock",
        tags,
        summary: "One block with its decoded transactions",
        params: blockParams,
        response: { 200: lazySchema(() => z.object({ block: blockDto })) },
      },
    },
    async (req) => inspect.block(req.params.id, req.params.blockNum),
  );

  r.get(
    "/networks/fabric/:id/channel-config",
    {
      config: { access: "NETWORK_READ" },
      schema: {
        operationId: "getFabricChannelConfig",
        tags,
        summary: "The genesis block's channel config as JSON",
        params: idParams,
        response: { 200: channelConfigResponse },
      },
    },
    async (req) => inspect.genesisConfig(req.params.id),
  );

  r.get(
    "/networks/fabric/:id/current-channel-config",
    {
      config: { access: "NETWORK_READ" },
      schema: {
        operationId: "getFabricCurrentChannelConfig",
        tags,
        summary: "The newest config block's channel config as JSON",
        params: idParams,
        response: { 200: channelConfigResponse },
      },
    },
    async (req) => inspect.currentConfig(req.params.id),
  );

  r.get(
    "/networks/fabric/:id/map",
    {
      config: { access: "NETWORK_READ" },
      schema: {
        operationId: "getNetworkMap",
        tags,
        summary: "The network's peers and orderers, their orgs and chain heights",
        params: idParams,
        querystring: lazySchema(() =>
          z
            .object({ checkHealth: z.enum(["true", "false"]).optional().describe("Ignored: heights are always read") })
            .strict(),
        ),
        response: { 200: networkMapResponse },
      },
    },
    async (req) => inspect.map(req.params.id),
  );

  r.post(
    "/networks/fabric/:id/anchor-peers",
    {
      config: { access: "NETWORK_UPDATE", audit: "fabric_network.anchor_peers" },
      schema: {
        operationId: "setFabricAnchorPeers",
        tags,
        summary: "Set an org's anchor peers (config update signed by the org admin)",
        params: idParams,
        body: anchorPeersBody,
        response: { 200: transactionIdResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `network:${req.params.id}`;
      req.auditInfo.details = { organizationId: req.body.organizationId, anchorPeers: req.body.anchorPeers.length };
      return change.anchorPeers(req.params.id, req.body.organizationId, req.body.anchorPeers);
    },
  );

  r.post(
    "/networks/fabric/:id/update-config",
    {
      config: { access: "NETWORK_UPDATE", audit: "fabric_network.update_config" },
      schema: {
        operationId: "updateFabricChannelConfig",
        tags,
        summary: "Apply config operations, sign by the org admins, submit, wait for the new config block",
        params: idParams,
        body: updateConfigBody,
        response: { 200: updateConfigResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `network:${req.params.id}`;
      req.auditInfo.details = { operations: req.body.operations.map((o) => o.type) };
      return change.updateConfig(
        req.params.id,
        req.body.operations,
        req.body.signing_org_ids,
        req.principal?.username ?? "",
      );
    },
  );

  r.post(
    "/networks/fabric/:id/organization-crl",
    {
      config: { access: "NETWORK_UPDATE", audit: "fabric_network.organization_crl" },
      schema: {
        operationId: "updateOrgCRL",
        tags,
        summary: "Publish an org's current CRL into its channel MSP",
        params: idParams,
        body: orgCrlBody,
        response: { 200: transactionIdResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `network:${req.params.id}`;
      req.auditInfo.details = { organizationId: req.body.organizationId };
      return change.organizationCrl(req.params.id, req.body.organizationId);
    },
  );
}
