import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { idPathParams, lazySchema } from "../../http/schema-helpers.js";
import { OsnAdminError, osnGetChannel, osnListChannels } from "../../fabric/osnadmin.js";
import { createPeerClient } from "../../fabric/peer-client.js";
import { errorMessage, InputError, NotFoundError, UpstreamError } from "../../http/errors.js";
import type { FabricContext, FabricNodeInfo } from "./fabric-networks.context.js";

const tags = ["Nodes"];
const idParams = idPathParams("Node id");
const channelParams = lazySchema(() =>
  idParams
    .unwrap()
    .extend({ channelID: z.string().min(1).max(249).describe("Channel name") })
    .strict(),
);

/**
 * The channels a running Fabric node is part of, asked of the node itself: CSCC GetChannels on a
 * peer (signed by its org admin), the channel participation API on an orderer (admin mTLS).
 */
export function createNodeChannels(ctx: Pick<FabricContext, "node" | "org" | "grpcEndpoint" | "osnEndpoint">) {
  async function running(id: number): Promise<FabricNodeInfo> {
    const n = await ctx.node(id, "id").catch((err: unknown) => {
      if (err instanceof InputError && /not found/.test(err.message)) throw new NotFoundError(`node ${id} not found`);
      throw err;
    });
    if (n.status !== "RUNNING")
      throw new InputError(`id: node '${n.name}' is ${n.status}; start it to ask for its channels`);
    return n;
  }
  async function upstream<T>(n: FabricNodeInfo, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof OsnAdminError && err.status === 404)
        throw new NotFoundError(`node '${n.name}' is not in that channel`);
      if (err instanceof InputError || err instanceof NotFoundError) throw err;
      throw new UpstreamError(`node '${n.name}' did not answer: ${errorMessage(err)}`);
    }
  }
  async function peerCall<T>(
    n: FabricNodeInfo,
    fn: (c: ReturnType<typeof createPeerClient>) => Promise<T>,
  ): Promise<T> {
    const client = createPeerClient(
      ctx.grpcEndpoint(n),
      await (await ctx.org(n.organizationId, "organizationId")).admin(),
    );
    try {
      return await fn(client);
    } finally {
      client.close();
    }
  }

  return {
    async channels(id: number) {
      const n = await running(id);
      const channels = await upstream(n, async () => {
        if (n.role === "orderer") {
          const ep = await ctx.osnEndpoint(n);
          const list = await osnListChannels(ep);
          return Promise.all(
            list.channels.map(async (c) => ({ name: c.name, blockNum: (await osnGetChannel(ep, c.name)).height })),
          );
        }
        return peerCall(n, async (client) => {
          const names = await client.getChannels();
          return Promise.all(
            names.map(async (name) => ({ name, blockNum: Number((await client.getChainInfo(name)).height) })),
          );
        });
      });
      const now = new Date().toISOString();
      return { nodeId: id, channels: channels.map((c) => ({ ...c, createdAt: now })) };
    },
    async height(id: number, channelId: string) {
      const n = await running(id);
      const height = await upstream(n, async () => {
        if (n.role === "orderer") return (await osnGetChannel(await ctx.osnEndpoint(n), channelId)).height;
        return peerCall(n, async (client) => {
          if (!(await client.getChannels()).includes(channelId))
            throw new NotFoundError(`node '${n.name}' is not in channel '${channelId}'`);
          return Number((await client.getChainInfo(channelId)).height);
        });
      });
      return { channelId, height, nodeType: n.role === "orderer" ? "FABRIC_ORDERER" : "FABRIC_PEER" };
    },
    /** The chaincode definitions committed on a channel, asked of a peer (_lifecycle). */
    async chaincodes(id: number, channelId: string) {
      const n = await running(id);
      if (n.role !== "peer") {
        throw new InputError(`id: node '${n.name}' is an orderer; chaincodes are committed on peers`, { field: "id" });
      }
      return upstream(n, () =>
        peerCall(n, async (client) => {
          if (!(await client.getChannels()).includes(channelId))
            throw new NotFoundError(`node '${n.name}' is not in channel '${channelId}'`);
          return client.queryChaincodeDefinitions(channelId);
        }),
      );
    },
  };
}

export function registerNodeChannelRoutes(app: FastifyInstance, svc: ReturnType<typeof createNodeChannels>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/nodes/:id/channels",
    {
      config: { access: "NODE_READ" },
      schema: {
        operationId: "getNodeChannels",
        tags,
        summary:
          "Channels a running Fabric node is in, asked of the node (CSCC on a peer, participation API on an orderer)",
        params: idParams,
        response: {
          200: lazySchema(() =>
            z.object({
              nodeId: z.number().int().describe("Node id"),
              channels: z
                .array(
                  z.object({
                    name: z.string().describe("Channel name"),
                    blockNum: z.number().int().describe("Height of the node's copy of the channel"),
                    createdAt: z.string().describe("When this answer was read"),
                  }),
                )
                .describe("Channels"),
            }),
          ),
        },
      },
    },
    async (req) => svc.channels(req.params.id),
  );
  r.get(
    "/nodes/:id/channels/:channelID/height",
    {
      config: { access: "NODE_READ" },
      schema: {
        operationId: "getNodeChannelHeight",
        tags,
        summary: "Height of one channel on a running Fabric node",
        params: channelParams,
        response: {
          200: lazySchema(() =>
            z.object({
              channelId: z.string().describe("Channel name"),
              height: z.number().int().describe("Number of blocks"),
              nodeType: z.string().describe("FABRIC_PEER or FABRIC_ORDERER"),
            }),
          ),
        },
      },
    },
    async (req) => svc.height(req.params.id, req.params.channelID),
  );
  r.get(
    "/nodes/:id/channels/:channelID/chaincodes",
    {
      config: { access: "NODE_READ" },
      schema: {
        operationId: "getNodeChaincodes",
        tags,
        summary: "Chaincode definitions committed on a channel, asked of a running peer (_lifecycle)",
        params: channelParams,
        response: {
          200: lazySchema(() =>
            z
              .array(
                z.object({
                  name: z.string().describe("Chaincode name"),
                  version: z.string().describe("Version label"),
                  sequence: z.number().int().describe("Definition sequence"),
                  endorsementPlugin: z.string().describe("Endorsement plugin (escc)"),
                  validationPlugin: z.string().describe("Validation plugin (vscc)"),
                  initRequired: z.boolean().describe("Whether Init must be invoked first"),
                  endorsementPolicy: z
                    .string()
                    .describe("Signature policy in DSL form, or the channel policy it references"),
                }),
              )
              .describe("Committed definitions"),
          ),
        },
      },
    },
    async (req) => svc.chaincodes(req.params.id, req.params.channelID),
  );
}
