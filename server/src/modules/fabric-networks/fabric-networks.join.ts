import { common } from "@hyperledger/fabric-protos";
import { channelSummary } from "../../fabric/configtx/index.js";
import { configFromBlock, fetchNewestConfigBlock } from "../../fabric/deliver.js";
import type { SigningIdentity } from "../../fabric/identity.js";
import { OsnAdminError, osnJoinChannel, osnRemoveChannel } from "../../fabric/osnadmin.js";
import { createPeerClient, ProposalError } from "../../fabric/peer-client.js";
import { AppError, ConflictError, errorMessage, InputError, UpstreamError } from "../../http/errors.js";
import type { NodesService } from "../nodes/nodes.service.js";
import type { FabricContext, FabricNodeInfo } from "./fabric-networks.context.js";
import { fetchNewestConfigFromOrderers, genesisForPeer } from "./fabric-networks.import.js";
import type { FabricNetworksRepo, NetworkRow } from "./fabric-networks.repo.js";
import type { createNodeChannels } from "./node-channels.js";

const message = (err: unknown): string => errorMessage(err).slice(0, 2000);

/**
 * Joining nodes to a channel and taking them out: orderers through the channel participation API
 * (admin mTLS), peers through a CSCC JoinChain signed by their org admin, each outcome stored on
 * the member row (a failure with its reason, so it is retried alone).
 */
export function createFabricJoin(deps: {
  ctx: FabricContext;
  repo: FabricNetworksRepo;
  nodes: Pick<NodesService, "peerOffline">;
  nodeChannels: ReturnType<typeof createNodeChannels>;
}) {
  const { ctx, repo, nodeChannels } = deps;

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

  /**
   * 409 naming `field` when the peer's org is not an application org of the channel: such a peer
   * would "join" and then be refused every block (FORBIDDEN), so neither adding it to the network
   * nor joining it is allowed until the org is added (POST .../organizations or update-config).
   * Returns the org's admin, which signs the join.
   */
  async function assertPeerOrgInChannel(network: NetworkRow, n: FabricNodeInfo, field: string) {
    const orgAdmin = await (await ctx.org(n.organizationId, "organizationId")).admin();
    if (!(await isApplicationOrg(network, n.mspId, orgAdmin))) {
      throw new ConflictError(
        `${field}: organization ${n.mspId} of peer '${n.name}' is not a member of channel '${network.name}'; add the organization to the channel first`,
        { field },
      );
    }
    return orgAdmin;
  }

  async function joinPeer(networkId: number, peerId: number): Promise<NetworkRow> {
    const { network, n, m } = await joinable(networkId, peerId, "peer");
    if (m?.status === "joined") {
      throw new InputError(`peer '${n.name}' has already joined channel '${network.name}'`, { field: "peerId" });
    }
    if (n.status !== "RUNNING") throw new InputError(`peer '${n.name}' is ${n.status}; start it before joining`);
    const orgAdmin = await assertPeerOrgInChannel(network, n, "peerId");
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

  return {
    track,
    inChannel,
    joinable,
    joinOrderer,
    joinPeer,
    joinAll,
    currentConfig,
    assertPeerOrgInChannel,
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
  };
}

export type FabricJoin = ReturnType<typeof createFabricJoin>;
