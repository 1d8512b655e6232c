import type { FastifyInstance } from "fastify";
import { InputError } from "../../http/errors.js";
import type { NodesService } from "../nodes/nodes.service.js";
import type { KeysService } from "../keys/keys.service.js";
import { registerBesuDeployRoute } from "./besu-deploy.routes.js";
import { registerContractRoutes } from "./contracts.routes.js";
import { registerNodeRpcRoutes, type RpcEndpointResolver } from "./node-rpc.routes.js";

/** Wires the Besu RPC explorer to the nodes module: a Besu node's JSON-RPC URL comes from its config. */
export function registerNodeRpcModule(
  api: FastifyInstance,
  nodes: Pick<NodesService, "get">,
  keys: Pick<KeysService, "get" | "sign">,
): void {
  const resolver: RpcEndpointResolver = {
    async rpcUrl(nodeId) {
      const node = await nodes.get(nodeId);
      const besu = node.besuNode;
      if (node.platform !== "BESU" || !besu) throw new InputError(`id: node ${nodeId} is not a Besu node`);
      // A node listening on all interfaces is dialled on loopback.
      const host = besu.rpcHost === "0.0.0.0" || besu.rpcHost === "::" ? "127.0.0.1" : besu.rpcHost;
      return `http://${host.includes(":") ? `[${host}]` : host}:${besu.rpcPort}`;
    },
    async notRunning(nodeId) {
      const node = await nodes.get(nodeId);
      return node.status === "RUNNING"
        ? undefined
        : `id: node "${node.name}" is not running (${node.status}); start it to reach its JSON-RPC`;
    },
  };
  registerNodeRpcRoutes(api, resolver);
  registerContractRoutes(api, resolver, keys);
  registerBesuDeployRoute(api, resolver, keys);
}
