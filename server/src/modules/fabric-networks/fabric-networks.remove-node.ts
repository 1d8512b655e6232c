import type { common } from "@hyperledger/fabric-protos";
import { consenterAddresses } from "../../fabric/configtx/index.js";
import { ConflictError, NotFoundError } from "../../http/errors.js";
import { splitHostPort, type FabricContext } from "./fabric-networks.context.js";
import type { FabricNetworksRepo, NetworkRow } from "./fabric-networks.repo.js";

/** What removing a node from a network needs from the networks service. */
export interface RemoveNodeDeps {
  ctx: Pick<FabricContext, "network" | "tryNode" | "toInfo">;
  repo: Pick<FabricNetworksRepo, "member" | "removeMember">;
  unjoinOrderer(networkId: number, ordererId: number): Promise<NetworkRow>;
  unjoinPeer(networkId: number, peerId: number): Promise<NetworkRow>;
  currentConfig(network: NetworkRow): Promise<common.Config>;
}

/**
 * DELETE /networks/fabric/{id}/peers|orderers/{nodeId}: takes a node out of the network record.
 * A member that joined (or whose join or unjoin failed half-way) leaves the channel first with
 * the unjoin code: a peer is stopped, `peer node unjoin`, started again; an orderer leaves
 * through its channel participation API. An orderer that is still one of the channel's
 * consenters is refused (409): leaving would only take a consenter offline, so it must first be
 * removed from the consenter set with a config update (remove_consenter). If leaving fails, the
 * member stays, with the failure recorded.
 */
export function createRemoveNode(deps: RemoveNodeDeps) {
  return async function removeNode(networkId: number, nodeId: number, role: "peer" | "orderer"): Promise<NetworkRow> {
    const field = role === "peer" ? "peerId" : "ordererId";
    const network = await deps.ctx.network(networkId);
    const m = await deps.repo.member(networkId, nodeId);
    if (!m) throw new NotFoundError(`${field}: node ${nodeId} is not in network '${network.name}'`);
    if (m.role !== role) {
      throw new NotFoundError(
        `${field}: node ${nodeId} is ${m.role === "peer" ? "a peer" : "an orderer"} of network '${network.name}', not ${role === "peer" ? "a peer" : "an orderer"}`,
      );
    }
    const node = await deps.ctx.tryNode(nodeId);
    const n = node && deps.ctx.toInfo(node);
    // A member whose node is gone has nothing left to leave the channel.
    if (n && (m.status === "joined" || m.status === "failed")) {
      if (role === "orderer") {
        const { host, port } = splitHostPort(n.endpoint);
        if (consenterAddresses(await deps.currentConfig(network)).includes(`${host}:${port}`)) {
          throw new ConflictError(
            `${field}: orderer '${n.name}' (${n.endpoint}) is a consenter of channel '${network.name}'; remove it from the consenter set first (POST /networks/fabric/${network.id}/update-config, remove_consenter), then remove the node`,
            { field },
          );
        }
        if (n.status !== "RUNNING") {
          throw new ConflictError(
            `${field}: orderer '${n.name}' is ${n.status}; start it so it can leave channel '${network.name}', then remove it`,
            { field },
          );
        }
        await deps.unjoinOrderer(networkId, nodeId);
      } else {
        await deps.unjoinPeer(networkId, nodeId);
      }
    }
    await deps.repo.removeMember(networkId, nodeId);
    return network;
  };
}
