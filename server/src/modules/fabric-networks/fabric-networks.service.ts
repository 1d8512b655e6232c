import type { common } from "@hyperledger/fabric-protos";
import { assertValidChannelId, buildGenesisBlock } from "../../fabric/configtx/index.js";
import { nowIso } from "../../db/db.js";
import { ConflictError, errorMessage, InputError, NotFoundError } from "../../http/errors.js";
import { createChannelInputs } from "./fabric-networks.channel-input.js";
import { createFabricContext, libraryInput, type FabricNetworksDeps } from "./fabric-networks.context.js";
import { createFabricImport } from "./fabric-networks.import.js";
import { createFabricJoin } from "./fabric-networks.join.js";
import { channelStatus, toNetworkResponse } from "./fabric-networks.mapping.js";
import type { NetworkNodeRow, NetworkRow } from "./fabric-networks.repo.js";
import { createNodeChannels } from "./node-channels.js";
import { createRemoveNode } from "./fabric-networks.remove-node.js";
import type { CreateFabricNetworkBody, FabricNetworkResponse, NetworkNodeResponse } from "./fabric-networks.schema.js";

export { channelStatus, toNetworkResponse } from "./fabric-networks.mapping.js";

const message = (err: unknown): string => errorMessage(err).slice(0, 2000);

/**
 * Fabric channels: validated parameters in, a genesis block built by our configtx library out;
 * then orderers join through the channel participation API (admin mTLS) and peers through a
 * CSCC JoinChain signed by their org admin. Each node's join status is stored, so a failed join
 * shows its reason and is retried alone.
 */
export function createFabricNetworksService(deps: FabricNetworksDeps) {
  const { repo } = deps;
  const ctx = createFabricContext(deps);
  const nodeChannels = createNodeChannels(ctx);
  const usageCheckers: Array<(networkId: number) => Promise<string | null>> = [];
  const { resolveOrgs, channelInput } = createChannelInputs(ctx);
  const join = createFabricJoin({ ctx, repo, nodes: deps.nodes, nodeChannels });
  const { joinAll, currentConfig, inChannel } = join;

  async function memberResponse(m: NetworkNodeRow): Promise<NetworkNodeResponse> {
    const n = await ctx.tryNode(m.node_id);
    return {
      id: m.id,
      networkId: m.network_id,
      nodeId: m.node_id,
      role: m.role as "peer" | "orderer",
      status: m.status as NetworkNodeResponse["status"],
      ...(m.error ? { error: m.error } : {}),
      ...(n ? { node: n } : {}),
      createdAt: m.created_at,
      updatedAt: m.updated_at,
    };
  }

  /** Responses with each channel's status derived from its members (one query for a whole page). */
  async function respondAll(rows: NetworkRow[]): Promise<FabricNetworkResponse[]> {
    const states = await repo.memberStates(rows.map((r) => r.id));
    return rows.map((r) =>
      toNetworkResponse(
        r,
        channelStatus(
          r.status,
          states.filter((m) => m.network_id === r.id),
        ),
      ),
    );
  }
  async function respond(row: NetworkRow): Promise<FabricNetworkResponse> {
    return (await respondAll([row]))[0] as FabricNetworkResponse;
  }

  const removeNode = createRemoveNode({
    ctx,
    repo,
    currentConfig,
    unjoinPeer: (networkId, peerId) => join.unjoinPeer(networkId, peerId),
    unjoinOrderer: (networkId, ordererId) => join.unjoinOrderer(networkId, ordererId),
  });

  const service = {
    ctx,
    nodeChannels,
    ...createFabricImport({ ctx, repo, external: deps.external }),
    async create(body: CreateFabricNetworkBody): Promise<FabricNetworkResponse> {
      libraryInput("", () => {
        try {
          assertValidChannelId(body.name);
        } catch (err) {
          throw new InputError(`name: ${message(err)}`, { field: "name" });
        }
      });
      await ctx.assertNameFree(body.name, "name");
      const orderers = await resolveOrgs(
        body.config.ordererOrganizations,
        "orderer",
        "ordererOrganizations",
        body.config.consensusType !== "etcdraft",
      );
      const peers = await resolveOrgs(body.config.peerOrganizations, "peer", "peerOrganizations");
      const input = channelInput(body, peers, orderers);
      const block: common.Block = libraryInput("config.", () => buildGenesisBlock(input));
      const now = nowIso();
      const members = [
        ...orderers.flatMap((o) => o.nodes.map((n) => ({ node_id: n.id, role: "orderer" as const }))),
        ...peers.flatMap((o) => o.nodes.map((n) => ({ node_id: n.id, role: "peer" as const }))),
      ];
      const seen = new Set<number>();
      for (const m of members) {
        if (seen.has(m.node_id)) throw new InputError(`config: node ${m.node_id} is listed twice`);
        seen.add(m.node_id);
      }
      const { joinNodes, ...request } = body;
      const row = await repo.insert(
        {
          name: body.name,
          platform: "FABRIC",
          description: body.description ?? null,
          status: "genesis_block_created",
          chain_id: null,
          config: JSON.stringify(request.config),
          genesis: Buffer.from(block.serializeBinary()).toString("base64"),
          validators: "[]",
          created_at: now,
          updated_at: now,
        },
        members,
      );
      if (joinNodes) void joinAll(row).catch(() => undefined);
      return toNetworkResponse(row);
    },
    async list(limit: number, offset: number, name?: string) {
      const { rows, total } = await repo.list(limit, offset, name);
      return { networks: await respondAll(rows), total };
    },
    async get(id: number): Promise<FabricNetworkResponse> {
      return respond(await ctx.network(id));
    },
    respond,
    /** Lets another module block deletion of networks it uses (chaincodes run on the channel). */
    addUsageChecker(check: (networkId: number) => Promise<string | null>): void {
      usageCheckers.push(check);
    },
    /**
     * Deletes the record; nodes keep the channel (unjoin them first to leave it). A network that
     * still has chaincodes is refused: their servers serve a channel that goes on existing.
     */
    async remove(id: number): Promise<NetworkRow> {
      const row = await ctx.network(id);
      for (const check of usageCheckers) {
        const user = await check(id);
        if (user) throw new ConflictError(`id: network '${row.name}' is still used by ${user}; delete that first`);
      }
      await repo.delete(id);
      return row;
    },
    async nodes(id: number): Promise<{ nodes: NetworkNodeResponse[] }> {
      await ctx.network(id);
      return { nodes: await Promise.all((await repo.members(id)).map(memberResponse)) };
    },
    async addNode(id: number, nodeId: number, role: "peer" | "orderer"): Promise<FabricNetworkResponse> {
      const network = await ctx.network(id);
      const n = await ctx.node(nodeId, "nodeId");
      if (n.role !== role) throw new InputError(`nodeId: node '${n.name}' is a ${n.role}, not a ${role}`);
      if (await repo.member(id, nodeId)) {
        throw new InputError(`nodeId: node '${n.name}' is already in network '${network.name}'`, { field: "nodeId" });
      }
      if (role === "peer") await join.assertPeerOrgInChannel(network, n, "nodeId");
      await repo.addMember(id, nodeId, role);
      // A node that already has the channel (e.g. of an imported network) is recorded as joined.
      if (await inChannel(n, network.name)) await repo.setStatus(id, nodeId, "joined", null);
      return respond(network);
    },
    joinOrderer: join.joinOrderer,
    joinPeer: join.joinPeer,
    unjoinOrderer: join.unjoinOrderer,
    unjoinPeer: join.unjoinPeer,
    /** DELETE /networks/fabric/{id}/peers|orderers/{nodeId} (see fabric-networks.remove-node.ts). */
    async removeNode(networkId: number, nodeId: number, role: "peer" | "orderer"): Promise<NetworkRow> {
      const network = await removeNode(networkId, nodeId, role);
      await repo.touch(networkId);
      return network;
    },
    async getByName(name: string): Promise<FabricNetworkResponse> {
      // Names are unique across platforms: a Besu network's name is not a Fabric network.
      const row = await repo.fabricByName(name);
      if (!row) throw new NotFoundError(`name: no Fabric network named '${name}'`);
      return respond(row);
    },
    /** Name of a network a node has joined, if any (nodes in a channel can't be deleted). */
    async nodeUsage(nodeId: number): Promise<string | null> {
      const name = await repo.networkOfNode(nodeId);
      return name ? `network '${name}'` : null;
    },
  };
  return service;
}

export type FabricNetworksService = ReturnType<typeof createFabricNetworksService>;
