import { common } from "@hyperledger/fabric-protos";
import {
  assertValidChannelId,
  buildGenesisBlock,
  channelSummary,
  type BftConsenter,
  type ChannelConfigInput,
  type EtcdRaftConsenter,
  type OrdererOrgInput,
  type PeerOrgInput,
  type SmartBftOptions,
} from "../../fabric/configtx/index.js";
import { buildChannelMsp } from "../../fabric/msp/index.js";
import { OsnAdminError, osnJoinChannel, osnRemoveChannel } from "../../fabric/osnadmin.js";
import { createPeerClient, ProposalError } from "../../fabric/peer-client.js";
import { configFromBlock, fetchNewestConfigBlock } from "../../fabric/deliver.js";
import { nowIso } from "../../db/db.js";
import { AppError, ConflictError, errorMessage, InputError, NotFoundError, UpstreamError } from "../../http/errors.js";
import {
  createFabricContext,
  libraryInput,
  splitHostPort,
  type FabricNetworksDeps,
  type FabricNodeInfo,
} from "./fabric-networks.context.js";
import { createFabricImport, fetchNewestConfigFromOrderers, genesisForPeer } from "./fabric-networks.import.js";
import type { SigningIdentity } from "../../fabric/identity.js";
import type { NetworkNodeRow, NetworkRow } from "./fabric-networks.repo.js";
import { createNodeChannels } from "./node-channels.js";
import { createRemoveNode } from "./fabric-networks.remove-node.js";
import type { CreateFabricNetworkBody, FabricNetworkResponse, NetworkNodeResponse } from "./fabric-networks.schema.js";

/**
 * A channel's status from what its nodes report, not only what happened at creation:
 * - `genesis_block_created` (or `imported`): no node has joined yet; `join_failed` when every try failed;
 * - `stopped`: nodes joined, but none of its joined orderers is running;
 * - `partially_joined`: some members joined, others are pending or failed;
 * - `degraded`: every member joined, but some joined node is not running;
 * - `running`: every member joined and running.
 */
export function channelStatus(
  stored: string,
  members: readonly { role: string; status: string; node_status: string | null }[],
): string {
  const joined = members.filter((m) => m.status === "joined");
  if (joined.length === 0) return members.some((m) => m.status === "failed") ? "join_failed" : stored;
  const joinedOrderers = joined.filter((m) => m.role === "orderer");
  if (joinedOrderers.length > 0 && !joinedOrderers.some((m) => m.node_status === "RUNNING")) return "stopped";
  if (members.some((m) => m.status === "pending" || m.status === "failed")) return "partially_joined";
  if (joined.some((m) => m.node_status !== "RUNNING")) return "degraded";
  return "running";
}

export function toNetworkResponse(row: NetworkRow, status?: string): FabricNetworkResponse {
  return {
    id: row.id,
    name: row.name,
    description: row.description ?? "",
    platform: "FABRIC",
    status: status ?? row.status,
    config: Buffer.from(row.config).toString("base64"),
    deploymentConfig: "",
    domain: "",
    exposedPorts: [],
    genesisBlock: row.genesis ?? "",
    currentConfigBlock: row.config_block ?? "",
    createdBy: null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function bftOptions(o: NonNullable<CreateFabricNetworkBody["config"]["smartBFTOptions"]>): Partial<SmartBftOptions> {
  const { leaderRotation, ...rest } = o;
  const out: Partial<SmartBftOptions> = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  if (leaderRotation) out.leaderRotation = /off/i.test(leaderRotation) ? 1 : /on/i.test(leaderRotation) ? 2 : 0;
  return out;
}

const isV3 = (v: string): boolean => /^v?3\./.test(v);
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

  type Resolved = { org: Awaited<ReturnType<typeof ctx.org>>; nodes: FabricNodeInfo[] };

  async function resolveOrgs(
    list: CreateFabricNetworkBody["config"]["ordererOrganizations"],
    role: "peer" | "orderer",
    key: string,
    bft = false,
  ): Promise<Resolved[]> {
    const out: Resolved[] = [];
    for (const [i, o] of list.entries()) {
      const org = await ctx.org(o.id, `config.${key}[${i}].id`);
      const nodes: FabricNodeInfo[] = [];
      for (const [j, nodeId] of o.nodeIds.entries()) {
        const field = `config.${key}[${i}].nodeIds[${j}]`;
        const n = await ctx.node(nodeId, field);
        if (n.role !== role)
          throw new InputError(`${field}: node '${n.name}' is a ${n.role}, not a ${role}`, { field });
        if (n.organizationId !== o.id) {
          throw new InputError(`${field}: node '${n.name}' belongs to ${n.mspId}, not ${org.mspId}`, { field });
        }
        if (role === "orderer") {
          if (!n.tlsCert) throw new InputError(`${field}: orderer '${n.name}' has no TLS certificate`, { field });
          if (bft && !isV3(n.version)) {
            throw new InputError(`config.consensusType: BFT needs Fabric 3.x orderers; '${n.name}' runs ${n.version}`, {
              field: "config.consensusType",
            });
          }
          if (n.status !== "RUNNING") {
            throw new InputError(
              `${field}: orderer '${n.name}' is ${n.status}; consenters must be RUNNING to create the channel`,
              { field },
            );
          }
        }
        nodes.push(n);
      }
      out.push({ org, nodes });
    }
    return out;
  }

  function channelInput(body: CreateFabricNetworkBody, peers: Resolved[], orderers: Resolved[]): ChannelConfigInput {
    const c = body.config;
    const bft = c.consensusType !== "etcdraft";
    const ordererNodes = orderers.flatMap((o) => o.nodes);
    const versions = [...new Set(ordererNodes.map((n) => n.version))];
    if (bft) {
      const old = ordererNodes.find((n) => !isV3(n.version));
      if (old) {
        throw new InputError(`config.consensusType: BFT needs Fabric 3.x orderers; '${old.name}' runs ${old.version}`, {
          field: "config.consensusType",
        });
      }
    }
    const msp = (mspId: string, ca: string, tls: string, field: string) =>
      libraryInput(`${field}.`, () => buildChannelMsp({ mspId, caCertPem: ca, tlsCaCertPem: tls }));
    const peerOrgs: PeerOrgInput[] = [
      ...peers.map((p, i) => ({
        msp: msp(p.org.mspId, p.org.signCaCert, p.org.tlsCaCert, `config.peerOrganizations[${i}]`),
      })),
      ...c.externalPeerOrgs.map((e, i) => ({
        msp: msp(e.mspid, e.signCACert, e.tlsCACert, `config.externalPeerOrgs[${i}]`),
      })),
    ];
    const ordererOrgs: OrdererOrgInput[] = [
      ...orderers.map((o, i) => ({
        msp: msp(o.org.mspId, o.org.signCaCert, o.org.tlsCaCert, `config.ordererOrganizations[${i}]`),
        ordererEndpoints: o.nodes.map((n) => n.endpoint),
      })),
      ...c.externalOrdererOrgs.map((e, i) => ({
        msp: msp(e.mspid, e.signCACert, e.tlsCACert, `config.externalOrdererOrgs[${i}]`),
        ordererEndpoints: e.consenters.map((k) => `${k.host}:${k.port}`),
      })),
    ];
    const raft: EtcdRaftConsenter[] = [
      ...ordererNodes.map((n) => ({
        ...splitHostPort(n.endpoint),
        clientTlsCert: n.tlsCert,
        serverTlsCert: n.tlsCert,
      })),
      ...c.externalOrdererOrgs.flatMap((e) =>
        e.consenters.map((k) => ({ host: k.host, port: k.port, clientTlsCert: k.tlsCert, serverTlsCert: k.tlsCert })),
      ),
    ];
    if (raft.length === 0) {
      throw new InputError("config.ordererOrganizations: the channel needs at least one orderer node (consenter)", {
        field: "config.ordererOrganizations",
      });
    }
    if (bft && c.externalOrdererOrgs.some((e) => e.consenters.length > 0)) {
      throw new InputError("config.externalOrdererOrgs: external BFT consenters are not supported", {
        field: "config.externalOrdererOrgs",
      });
    }
    const bftConsenters: BftConsenter[] = ordererNodes.map((n, i) => ({
      id: i + 1,
      ...splitHostPort(n.endpoint),
      mspId: n.mspId,
      identity: n.signCert,
      clientTlsCert: n.tlsCert,
      serverTlsCert: n.tlsCert,
    }));
    return {
      channelId: body.name,
      ...(versions.length === 1 && versions[0] ? { fabricVersion: versions[0] } : {}),
      peerOrgs,
      ordererOrgs,
      consensus: bft
        ? {
            type: "BFT",
            consenters: bftConsenters,
            ...(c.smartBFTOptions ? { options: bftOptions(c.smartBFTOptions) } : {}),
          }
        : { type: "etcdraft", consenters: raft, ...(c.etcdRaftOptions ? { options: c.etcdRaftOptions } : {}) },
      ...(c.batchSize ? { batchSize: c.batchSize } : {}),
      ...(c.batchTimeout ? { batchTimeout: c.batchTimeout } : {}),
      capabilities: {
        ...(c.channelCapabilities ? { channel: c.channelCapabilities } : {}),
        ...(c.ordererCapabilities ? { orderer: c.ordererCapabilities } : {}),
        ...(c.applicationCapabilities ? { application: c.applicationCapabilities } : {}),
      },
      ...(c.channelPolicies ? { channelPolicies: c.channelPolicies } : {}),
      ...(c.ordererPolicies ? { ordererPolicies: c.ordererPolicies } : {}),
      ...(c.applicationPolicies ? { applicationPolicies: c.applicationPolicies } : {}),
    };
  }

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

  /** Records a join/unjoin outcome; failures are stored with their reason and rethrown. */
  async function track(
    network: NetworkRow,
    n: FabricNodeInfo,
    done: "joined" | "unjoined",
    fn: () => Promise<void>,
  ): Promise<void> {
    if (!(await repo.member(network.id, n.id))) await repo.addMember(network.id, n.id, n.role);
    try {
      await fn();
    } catch (err) {
      const named = err instanceof AppError && err.status === 400;
      if (!named) await repo.setStatus(network.id, n.id, "failed", message(err));
      if (err instanceof AppError) throw err;
      throw new UpstreamError(`${done === "joined" ? "join" : "unjoin"} of '${n.name}' failed: ${message(err)}`);
    }
    await repo.setStatus(network.id, n.id, done, null);
    await repo.touch(network.id);
  }

  /** Whether a running node reports the channel itself (best effort: false when it can't say). */
  async function inChannel(n: FabricNodeInfo, channel: string): Promise<boolean> {
    return nodeChannels.height(n.id, channel).then(
      () => true,
      () => false,
    );
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

  async function joinable(networkId: number, nodeId: number, role: "peer" | "orderer") {
    const network = await ctx.network(networkId);
    const n = await ctx.node(nodeId, role === "peer" ? "peerId" : "ordererId");
    if (n.role !== role) throw new InputError(`node '${n.name}' is a ${n.role}, not a ${role}`);
    const m = await repo.member(networkId, nodeId);
    return { network, n, m };
  }

  async function joinOrderer(networkId: number, ordererId: number): Promise<NetworkRow> {
    const { network, n, m } = await joinable(networkId, ordererId, "orderer");
    if (m?.status === "joined") {
      throw new InputError(`orderer '${n.name}' has already joined channel '${network.name}'`, { field: "ordererId" });
    }
    if (n.status !== "RUNNING") throw new InputError(`orderer '${n.name}' is ${n.status}; start it before joining`);
    await track(network, n, "joined", async () => {
      const ep = await ctx.osnEndpoint(n);
      try {
        await osnJoinChannel(ep, ctx.genesisOf(network));
      } catch (err) {
        if (err instanceof OsnAdminError && (err.status === 405 || err.status === 409)) {
          throw new InputError(`orderer '${n.name}' has already joined channel '${network.name}'`, {
            field: "ordererId",
          });
        }
        throw err;
      }
    });
    return network;
  }

  /**
   * The channel's config as it is now: from the newest config block of a joined, running orderer
   * (read with that orderer's org admin), else from the stored genesis block.
   */
  async function currentConfig(network: NetworkRow): Promise<common.Config> {
    for (const m of (await repo.members(network.id)).filter((x) => x.role === "orderer" && x.status === "joined")) {
      const o = await ctx.tryNode(m.node_id);
      const info = o && ctx.toInfo(o);
      if (!info || info.status !== "RUNNING") continue;
      const signer = await (await ctx.org(info.organizationId, "organizationId")).admin();
      const config = await fetchNewestConfigBlock({
        endpoint: ctx.grpcEndpoint(info),
        service: "orderer",
        signer,
        channelId: network.name,
      }).then(configFromBlock, () => undefined);
      if (config) return config;
    }
    return configFromBlock(common.Block.deserializeBinary(ctx.genesisOf(network)));
  }

  /** The application orgs of a channel config. */
  function applicationOrgsOf(config: common.Config): Set<string> {
    const app = config.getChannelGroup()?.getGroupsMap().get("Application");
    return new Set(app ? [...app.getGroupsMap().keys()] : []);
  }

  /**
   * Whether `mspId` is an application org of the channel now. When this console's own orderers (or
   * the stored block) don't list it, the orderers the channel config names are asked as `signer`: a
   * channel shared by another console was stored from block 0, before that console added this org.
   */
  async function isApplicationOrg(network: NetworkRow, mspId: string, signer: SigningIdentity): Promise<boolean> {
    const config = await currentConfig(network);
    if (applicationOrgsOf(config).has(mspId)) return true;
    const newest = await fetchNewestConfigFromOrderers(network.name, channelSummary(config), signer).catch(
      () => undefined,
    );
    return newest ? applicationOrgsOf(configFromBlock(newest)).has(mspId) : false;
  }

  async function joinPeer(networkId: number, peerId: number): Promise<NetworkRow> {
    const { network, n, m } = await joinable(networkId, peerId, "peer");
    if (m?.status === "joined") {
      throw new InputError(`peer '${n.name}' has already joined channel '${network.name}'`, { field: "peerId" });
    }
    if (n.status !== "RUNNING") throw new InputError(`peer '${n.name}' is ${n.status}; start it before joining`);
    // A peer of an org outside the channel would "join" and then be refused every block (FORBIDDEN).
    const orgAdmin = await (await ctx.org(n.organizationId, "organizationId")).admin();
    if (!(await isApplicationOrg(network, n.mspId, orgAdmin))) {
      throw new ConflictError(
        `peerId: organization ${n.mspId} of peer '${n.name}' is not a member of channel '${network.name}'; add the organization to the channel first`,
        { field: "peerId" },
      );
    }
    await track(network, n, "joined", async () => {
      const genesis = await genesisForPeer({ ctx, repo }, network, orgAdmin);
      const client = createPeerClient(ctx.grpcEndpoint(n), orgAdmin);
      try {
        await client.joinChain(genesis);
      } catch (err) {
        if (err instanceof ProposalError && /already exists/i.test(err.peerMessage)) {
          throw new InputError(`peer '${n.name}' has already joined channel '${network.name}'`, { field: "peerId" });
        }
        throw err;
      } finally {
        client.close();
      }
    });
    return network;
  }

  async function joinAll(network: NetworkRow): Promise<void> {
    const members = await repo.members(network.id);
    const run = (role: string, join: (nw: number, node: number) => Promise<unknown>) =>
      Promise.all(
        members
          .filter((m) => m.role === role && m.status !== "joined")
          .map((m) =>
            join(network.id, m.node_id).catch(async (err: unknown) => {
              await repo.setStatus(network.id, m.node_id, "failed", message(err)).catch(() => undefined);
            }),
          ),
      );
    await run("orderer", joinOrderer);
    await run("peer", joinPeer);
  }

  const removeNode = createRemoveNode({
    ctx,
    repo,
    currentConfig,
    unjoinPeer: (networkId, peerId) => service.unjoinPeer(networkId, peerId),
    unjoinOrderer: (networkId, ordererId) => service.unjoinOrderer(networkId, ordererId),
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
      await repo.addMember(id, nodeId, role);
      // A node that already has the channel (e.g. of an imported network) is recorded as joined.
      if (await inChannel(n, network.name)) await repo.setStatus(id, nodeId, "joined", null);
      return respond(network);
    },
    joinOrderer,
    joinPeer,
    async unjoinOrderer(networkId: number, ordererId: number): Promise<NetworkRow> {
      const { network, n, m } = await joinable(networkId, ordererId, "orderer");
      if (m?.status !== "joined" && m?.status !== "failed") {
        throw new InputError(`orderer '${n.name}' has not joined channel '${network.name}'`, { field: "ordererId" });
      }
      await track(network, n, "unjoined", async () => {
        try {
          await osnRemoveChannel(await ctx.osnEndpoint(n), network.name);
        } catch (err) {
          if (!(err instanceof OsnAdminError && err.status === 404)) throw err;
        }
      });
      return network;
    },
    /**
     * Fabric (2.5 and 3.x) has no online API to leave a channel: `peer node unjoin` works only on
     * a stopped peer's ledger. So the peer is stopped, unjoined with its own config, and started
     * again (a peer that was stopped stays stopped).
     */
    async unjoinPeer(networkId: number, peerId: number): Promise<NetworkRow> {
      const { network, n, m } = await joinable(networkId, peerId, "peer");
      if (m?.status !== "joined" && m?.status !== "failed") {
        throw new InputError(`peer '${n.name}' has not joined channel '${network.name}'`, { field: "peerId" });
      }
      await track(network, n, "unjoined", async () => {
        try {
          await deps.nodes.peerOffline(n.id, ["node", "unjoin", "--channelID", network.name]);
        } catch (err) {
          // Never joined on the node itself (e.g. a failed join): nothing to remove.
          if (!/does not exist|not found|cannot find/i.test(message(err))) throw err;
        }
      });
      return network;
    },
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
