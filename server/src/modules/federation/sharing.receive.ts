import { randomUUID } from "node:crypto";
import { BesuInputError, parseEnodeUrl, parseGenesis } from "../../besu/index.js";
import { nowIso } from "../../db/db.js";
import type { EventBus } from "../../events/bus.js";
import { AppError, ConflictError, InputError, NotFoundError, errorMessage } from "../../http/errors.js";
import type { BesuNetworksService } from "../besu-networks/besu-networks.service.js";
import { parseConfigBlock } from "../fabric-networks/fabric-networks.import.js";
import type { FabricNetworksService } from "../fabric-networks/fabric-networks.service.js";
import type { FederationClient } from "./federation.client.js";
import type { ConnectionRow } from "./federation.repo.js";
import type { SharedNetwork } from "./sharing.schema.js";
import type { ShareRow, SharingRepo } from "./sharing.repo.js";
import type { WireNetworkShare } from "./sharing.wire.js";

/** What a received network share keeps in data_json: the public material, checked on receipt. */
interface ReceivedNetworkData {
  genesisBlock: string;
  chainId?: number | undefined;
  orderers?: WireNetworkShare["orderers"];
  bootnodes?: string[] | undefined;
  metadata: Record<string, string>;
}

const parseJson = <T>(text: string): T => JSON.parse(text) as T;

/** The checks of a received network beyond its shape: a Fabric config block of the named channel, or a Besu genesis of the claimed chain. */
export function checkReceivedNetwork(body: WireNetworkShare): void {
  if (body.platform === "fabric") {
    let channelId: string;
    try {
      ({ channelId } = parseConfigBlock(body.genesisBlock));
    } catch (err) {
      throw new InputError(`body.genesisBlock: ${errorMessage(err).replace(/^genesisFile: /, "")}`);
    }
    if (channelId !== body.name) {
      throw new InputError(`body.name: '${body.name}' is not the block's channel '${channelId}'`);
    }
    if (body.bootnodes?.length) throw new InputError("body.bootnodes: a Fabric network has no bootnodes");
    return;
  }
  if (body.chainId === undefined) throw new InputError("body.chainId: is required for a Besu network");
  let genesis: unknown;
  try {
    genesis = JSON.parse(Buffer.from(body.genesisBlock, "base64").toString("utf8"));
  } catch (err) {
    throw new InputError(`body.genesisBlock: is not the base64 of a genesis JSON (${errorMessage(err)})`);
  }
  let chainId: number;
  try {
    ({ chainId } = parseGenesis(genesis));
  } catch (err) {
    if (err instanceof BesuInputError) throw new InputError(`body.genesisBlock: ${err.message}`);
    throw err;
  }
  if (chainId !== body.chainId) {
    throw new InputError(`body.chainId: ${body.chainId} is not the genesis chain id ${chainId}`);
  }
  (body.bootnodes ?? []).forEach((url, i) => {
    try {
      parseEnodeUrl(url, `body.bootnodes[${i}]`);
    } catch (err) {
      if (err instanceof BesuInputError) throw new InputError(err.message);
      throw err;
    }
  });
  if (body.orderers?.length) throw new InputError("body.orderers: a Besu network has no orderers");
}

/**
 * Received network shares (POST /federation/shares/network) and the operator's side of them:
 * list, accept (an import through the Fabric or Besu network import), reject and delete.
 */
export function createNetworkShares(deps: {
  repo: SharingRepo;
  connections: () => Promise<ConnectionRow[]>;
  myNodeId: () => Promise<string>;
  fabric: Pick<FabricNetworksService, "importBlock">;
  besu: Pick<BesuNetworksService, "import">;
  bus: Pick<EventBus, "publish">;
  client: FederationClient;
  log?: { warn(obj: object, msg: string): void };
}) {
  const { repo } = deps;

  /**
   * Tells the console that sent a share what became of it (signed, best effort, 5 s): its record
   * shows the answer. A failure is logged; the answer here stands either way.
   */
  async function answerSender(row: ShareRow, status: "accepted" | "rejected"): Promise<void> {
    try {
      const conn = (await deps.connections()).find((c) => c.id === row.connection_id);
      if (!conn || conn.status === "revoked" || !row.remote_share_id) return;
      const reply = await deps.client.send({
        endpoint: conn.endpoint,
        to: conn.node_id,
        method: "POST",
        path: "/federation/shares/answer",
        body: { shareId: row.remote_share_id, status },
        timeoutMs: 5000,
      });
      if (reply.status !== 200) throw new Error(reply.message);
    } catch (err) {
      deps.log?.warn({ shareId: row.id, err: errorMessage(err) }, "could not tell the sender about the share");
    }
  }

  function toDto(row: ShareRow, nodeIds: Map<number, string>, me: string): SharedNetwork {
    const data = parseJson<Record<string, unknown>>(row.data_json);
    const sent = row.direction === "sent";
    const recipients = sent ? ((data.recipients ?? []) as { recipient: number }[]).map((r) => r.recipient) : [];
    return {
      id: row.id,
      connectionId: row.connection_id,
      createdAt: row.created_at,
      dataJson: data,
      recipients,
      resourceId: row.resource_id,
      resourceType: row.kind === "besu_network" ? "besu_network" : "fabric_network",
      sharedBy: row.shared_by ?? "",
      sharedByNodeId: sent ? me : (nodeIds.get(row.connection_id ?? 0) ?? ""),
      status: row.status,
      direction: sent ? "sent" : "received",
      platform: row.platform === "besu" ? "besu" : "fabric",
      networkName: row.name,
      localNetworkId: row.local_network_id,
      error: row.error,
    };
  }

  async function nodeIdMap(): Promise<Map<number, string>> {
    return new Map((await deps.connections()).map((c) => [c.id, c.node_id]));
  }

  async function mustShare(id: string): Promise<ShareRow> {
    const row = await repo.byId(id);
    if (!row || row.kind === "key") throw new NotFoundError(`shareId: no shared network ${id}`);
    return row;
  }

  async function mustReceived(id: string, verb: string): Promise<ShareRow> {
    const row = await mustShare(id);
    if (row.direction !== "received") {
      throw new ConflictError(`shareId: share ${id} was sent by this console; only received shares can be ${verb}`);
    }
    return row;
  }

  return {
    /**
     * Stores a share a connected console sent (already verified: signature, sender, replay) and
     * tells this console's users (`network.received`). A second delivery of the same share id
     * from the same console answers with the stored share and changes nothing.
     */
    async receive(sender: ConnectionRow, body: WireNetworkShare): Promise<{ shareId: string; status: string }> {
      checkReceivedNetwork(body);
      const data: ReceivedNetworkData = {
        genesisBlock: body.genesisBlock,
        ...(body.platform === "besu" ? { chainId: body.chainId, bootnodes: body.bootnodes ?? [] } : {}),
        ...(body.platform === "fabric" ? { orderers: body.orderers ?? [] } : {}),
        metadata: body.metadata ?? {},
      };
      const now = nowIso();
      const row = await repo.insertReceived({
        id: randomUUID(),
        direction: "received",
        kind: body.platform === "fabric" ? "fabric_network" : "besu_network",
        connection_id: sender.id,
        remote_share_id: body.shareId,
        resource_id: String(body.networkId),
        name: body.name,
        platform: body.platform,
        data_json: JSON.stringify(data),
        status: "pending",
        error: null,
        local_network_id: null,
        shared_by: body.sharedBy,
        expires_at: null,
        created_at: now,
        updated_at: now,
      });
      if (!row) {
        const known = await repo.receivedByRemote(sender.id, body.shareId);
        return { shareId: known?.id ?? "", status: known?.status ?? "pending" };
      }
      deps.bus.publish("network.received", {
        from_node_id: sender.node_id,
        from_user: body.sharedBy ?? "",
        platform: body.platform,
        network_name: body.name,
        share_id: row.id,
      });
      return { shareId: row.id, status: row.status };
    },

    async list(direction?: "sent" | "received"): Promise<SharedNetwork[]> {
      const [rows, ids, me] = await Promise.all([repo.listNetworks(direction), nodeIdMap(), deps.myNodeId()]);
      return rows.map((r) => toDto(r, ids, me));
    },

    async get(id: string): Promise<SharedNetwork> {
      return toDto(await mustShare(id), await nodeIdMap(), await deps.myNodeId());
    },

    /**
     * Imports a pending received network through the Fabric or Besu import, so this console's
     * nodes can join it. A failed import leaves the share pending with the reason in `error`.
     */
    async accept(id: string): Promise<{ networkId: number; row: ShareRow }> {
      const row = await mustReceived(id, "accepted");
      if (!(await repo.claimForAccept(id, new Date()))) {
        const now = await repo.byId(id);
        throw new ConflictError(`shareId: share ${id} is ${now?.status ?? "gone"}, not pending`);
      }
      const data = parseJson<ReceivedNetworkData>(row.data_json);
      const description = `Shared by ${(await nodeIdMap()).get(row.connection_id ?? 0) ?? "another console"}`;
      try {
        const networkId =
          row.platform === "besu"
            ? (
                await deps.besu.import({
                  name: row.name,
                  description,
                  ...(data.chainId !== undefined ? { chainId: data.chainId } : {}),
                  genesisFile: Buffer.from(data.genesisBlock, "base64").toString("utf8"),
                })
              ).networkId
            : (await deps.fabric.importBlock({ description, genesisFile: data.genesisBlock })).row.id;
        await repo.transition(
          id,
          "accepting",
          { status: "accepted", error: null, local_network_id: networkId },
          nowIso(),
        );
        await answerSender(row, "accepted");
        return { networkId, row };
      } catch (err) {
        const reason = errorMessage(err).slice(0, 1000);
        await repo.transition(id, "accepting", { status: "pending", error: reason }, nowIso());
        if (err instanceof AppError) throw err;
        throw new Error(`importing shared network '${row.name}' failed: ${reason}`, { cause: err });
      }
    },

    async reject(id: string): Promise<ShareRow> {
      const row = await mustReceived(id, "rejected");
      if (!(await repo.transition(id, "pending", { status: "rejected" }, nowIso()))) {
        const now = await repo.byId(id);
        throw new ConflictError(`shareId: share ${id} is ${now?.status ?? "gone"}, not pending`);
      }
      await answerSender(row, "rejected");
      return row;
    },

    /** Deletes the record (an accepted share's imported network stays). */
    async remove(id: string): Promise<ShareRow> {
      const row = await mustShare(id);
      if (!(await repo.remove(id))) throw new ConflictError(`shareId: share ${id} is being accepted; try again later`);
      return row;
    },
  };
}

export type NetworkShares = ReturnType<typeof createNetworkShares>;
