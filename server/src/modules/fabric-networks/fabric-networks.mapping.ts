import type { NetworkRow } from "./fabric-networks.repo.js";
import type { FabricNetworkResponse } from "./fabric-networks.schema.js";

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
