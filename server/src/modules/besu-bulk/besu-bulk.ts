import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import type { EventBus } from "../../events/bus.js";
import { errorMessage } from "../../http/errors.js";
import type { BesuNetworksService } from "../besu-networks/besu-networks.service.js";
import { besuNetworkConfig, besuNetworkResponse } from "../besu-networks/besu-networks.schema.js";
import type { KeysService } from "../keys/keys.service.js";
import type { NodeDefaultsService } from "../nodes/nodes.defaults.js";
import { nodeName, nodeResponse } from "../nodes/nodes.schema.js";
import type { NodesService } from "../nodes/nodes.service.js";

export const bulkCreateBody = lazySchema(() =>
  z
    .object({
      // The nodes are named after the network, so the network name follows the node name rule (a
      // single network's name has no character rule of its own): no slashes, no leading dot.
      networkName: nodeName.unwrap().max(80).describe("Name of the new network; nodes are named <network>-node-<i>"),
      description: z.string().max(1000).optional().describe("Free text"),
      nodeCount: z.number().int().min(1).max(16).describe("Validators to create: keys and nodes"),
      config: besuNetworkConfig
        .unwrap()
        .omit({ initialValidatorsKeyIds: true, externalValidatorKeys: true })
        .describe("QBFT parameters; the validators are the new keys"),
      externalIp: z
        .string()
        .trim()
        .min(1)
        .max(253)
        .optional()
        .describe("Advertised IP of the nodes (default from settings)"),
      start: z.boolean().default(true).describe("Start the nodes once created"),
    })
    .strict()
    .describe("One flow: N validator keys, the network, and N nodes wired with bootnodes"),
);

/** The phases of a bulk creation; each is published on the bus as `besu.bulk_create.progress`. */
type Phase = "keys" | "network" | "nodes" | "done" | "failed" | "rolled_back";

/**
 * Creates N secp256k1 validator keys, the QBFT network with them as initial validators, and N nodes.
 * The first node is the bootnode of the others. On any failure everything created so far is
 * removed again, so the request leaves the state as it was.
 */
export function createBesuBulk(deps: {
  keys: Pick<KeysService, "create" | "remove">;
  networks: Pick<BesuNetworksService, "create" | "remove">;
  nodes: Pick<NodesService, "create" | "remove" | "assertBesuRunnable">;
  defaults: Pick<NodeDefaultsService, "besu">;
  bus: Pick<EventBus, "publish">;
}) {
  return async function bulkCreate(body: z.infer<typeof bulkCreateBody>, userId?: number, requestId?: string) {
    const created = { keys: [] as number[], network: undefined as number | undefined, nodes: [] as number[] };
    const progress = (phase: Phase, done: number, total: number, message: string) =>
      deps.bus.publish(
        "besu.bulk_create.progress",
        { networkName: body.networkName, requestId: requestId ?? null, phase, done, total, message },
        userId ? { userId } : {},
      );
    // Nodes that are to start need a besu: say so before any key or network exists.
    if (body.start) await deps.nodes.assertBesuRunnable(undefined);
    try {
      for (let i = 0; i < body.nodeCount; i++) {
        const key = await deps.keys.create({
          name: `${body.networkName}-validator-${i}`,
          algorithm: "EC",
          curve: "secp256k1",
        });
        created.keys.push(key.id);
        progress("keys", i + 1, body.nodeCount, `validator key ${i + 1} of ${body.nodeCount}`);
      }
      const network = await deps.networks.create({
        name: body.networkName,
        ...(body.description ? { description: body.description } : {}),
        config: { ...body.config, initialValidatorsKeyIds: created.keys, externalValidatorKeys: [] },
      });
      created.network = network.id;
      progress("network", 1, 1, `network '${network.name}' with ${body.nodeCount} validators`);
      const { defaults } = await deps.defaults.besu(body.nodeCount);
      const nodes = [];
      const bootNodes: string[] = [];
      for (let i = 0; i < body.nodeCount; i++) {
        const d = defaults[i]!;
        const node = await deps.nodes.create(
          {
            name: `${body.networkName}-node-${i}`,
            blockchainPlatform: "BESU",
            besuNode: {
              networkId: network.id,
              keyId: created.keys[i]!,
              externalIp: body.externalIp ?? (d.externalIp || "127.0.0.1"),
              internalIp: d.internalIp,
              p2pHost: d.p2pHost,
              p2pPort: d.p2pPort,
              rpcHost: d.rpcHost,
              rpcPort: d.rpcPort,
              metricsEnabled: d.metricsEnabled,
              metricsPort: d.metricsPort,
              minGasPrice: d.minGasPrice,
              ...(bootNodes.length ? { bootNodes: [...bootNodes] } : {}),
            },
          },
          body.start,
        );
        created.nodes.push(node.id);
        if (i === 0 && node.besuNode?.enodeUrl) bootNodes.push(node.besuNode.enodeUrl);
        nodes.push(node);
        progress("nodes", i + 1, body.nodeCount, `node '${node.name}'`);
      }
      progress("done", body.nodeCount, body.nodeCount, "created");
      return { network, nodes, keyIds: created.keys };
    } catch (err) {
      progress("failed", 0, body.nodeCount, errorMessage(err));
      for (const id of [...created.nodes].reverse()) await deps.nodes.remove(id).catch(() => undefined);
      if (created.network !== undefined) await deps.networks.remove(created.network).catch(() => undefined);
      for (const id of [...created.keys].reverse()) await deps.keys.remove(id).catch(() => undefined);
      progress("rolled_back", 0, body.nodeCount, "everything created by this request was removed");
      throw err;
    }
  };
}

/** POST /networks/besu/bulk-create. */
export function registerBesuBulkRoutes(app: FastifyInstance, bulkCreate: ReturnType<typeof createBesuBulk>): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    "/networks/besu/bulk-create",
    {
      config: { access: "NETWORK_CREATE", audit: "besu_network.bulk_create" },
      schema: {
        operationId: "bulkCreateBesuNetwork",
        tags: ["Besu Networks"],
        summary: "Create N validator keys, a QBFT network and N nodes wired with bootnodes, in one flow",
        body: bulkCreateBody,
        response: {
          201: lazySchema(() =>
            z.object({
              network: besuNetworkResponse,
              nodes: z.array(nodeResponse).describe("The created nodes"),
              keyIds: z.array(z.number().int()).describe("The validator keys, in node order"),
            }),
          ),
        },
      },
    },
    async (req, reply) => {
      req.auditInfo.details = { networkName: req.body.networkName, nodeCount: req.body.nodeCount };
      const res = await bulkCreate(req.body, req.principal?.userId || undefined, String(req.id));
      req.auditInfo.resource = `network:${res.network.id}`;
      return reply.status(201).send(res);
    },
  );
}
