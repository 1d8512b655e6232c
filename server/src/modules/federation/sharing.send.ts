import { randomUUID } from "node:crypto";
import { parseEnodeUrl } from "../../besu/index.js";
import { channelSummary } from "../../fabric/configtx/index.js";
import { configFromBlock } from "../../fabric/deliver.js";
import { nowIso } from "../../db/db.js";
import type { EventBus } from "../../events/bus.js";
import { ConflictError, InputError, NotFoundError, UpstreamError, errorMessage } from "../../http/errors.js";
import type { BesuNetworksService } from "../besu-networks/besu-networks.service.js";
import type { FabricNetworksService } from "../fabric-networks/fabric-networks.service.js";
import { parseConfigBlock } from "../fabric-networks/fabric-networks.import.js";
import type { FederationClient } from "./federation.client.js";
import type { ConnectionRow } from "./federation.repo.js";
import type { NetworkShareBody, NetworkShareResponse, RecipientResult } from "./sharing.schema.js";
import type { SharingRepo } from "./sharing.repo.js";
import type { WireNetworkShare, WireShareAnswer } from "./sharing.wire.js";

type Platform = "fabric" | "besu";

/** A NotFoundError from another module, renamed after the body field that named the missing row. */
function named(field: string) {
  return (err: unknown): never => {
    if (err instanceof NotFoundError) throw new NotFoundError(`${field}: ${err.message}`);
    throw err;
  };
}

/**
 * Resolves `ids` (connection ids of GET /node/connected-peers) to connections, refusing unknown
 * ids and repeats with a 400 that names the position. Revoked ones are kept: they fail at send.
 */
export async function resolveRecipients(
  connections: () => Promise<ConnectionRow[]>,
  ids: number[],
  field: (i: number) => string,
): Promise<ConnectionRow[]> {
  const byId = new Map((await connections()).map((c) => [c.id, c]));
  const seen = new Set<number>();
  return ids.map((id, i) => {
    const where = field(i);
    const conn = byId.get(id);
    if (!conn) throw new InputError(`${where}: no connected console with id ${id} (GET /node/connected-peers)`);
    if (seen.has(id)) throw new InputError(`${where}: connection ${id} is listed twice`);
    seen.add(id);
    return conn;
  });
}

/**
 * Sends one signed share message to each recipient. A revoked connection, a refusal or an
 * unreachable console fails that recipient only; the others still get it.
 */
export async function deliver(
  client: FederationClient,
  recipients: ConnectionRow[],
  path: string,
  body: unknown,
): Promise<RecipientResult[]> {
  return Promise.all(
    recipients.map(async (c): Promise<RecipientResult> => {
      const failed = (error: string): RecipientResult => ({
        recipient: c.id,
        nodeId: c.node_id,
        status: "failed",
        error,
      });
      if (c.status === "revoked") return failed(`the connection with ${c.node_id} is revoked`);
      try {
        const reply = await client.send({ endpoint: c.endpoint, to: c.node_id, method: "POST", path, body });
        if (reply.status !== 200) return failed(`${c.node_id} refused the share: ${reply.message}`);
        return { recipient: c.id, nodeId: c.node_id, status: "sent", error: null };
      } catch (err) {
        return failed(errorMessage(err));
      }
    }),
  );
}

/** The sending side of network sharing (POST /pro/sharing/network and /pro/sharing/besu-network). */
export function createNetworkShareSender(deps: {
  repo: SharingRepo;
  connections: () => Promise<ConnectionRow[]>;
  client: FederationClient;
  fabric: Pick<FabricNetworksService, "get">;
  besu: Pick<BesuNetworksService, "get">;
  bus: Pick<EventBus, "publish">;
}) {
  const { repo, client } = deps;

  /** Block 0 (base64) and the channel's orderer organizations with their endpoints and TLS CAs. */
  async function fabricPayload(networkId: number) {
    const n = await deps.fabric.get(networkId).catch(named("body.networkId"));
    if (!n.genesisBlock) throw new ConflictError(`body.networkId: network '${n.name}' has no genesis block to share`);
    const { block } = parseConfigBlock(n.genesisBlock);
    const orderers = channelSummary(configFromBlock(block)).orderer.map((o) => ({
      mspId: o.mspId,
      endpoints: o.endpoints,
      tlsCaCerts: o.tlsCaCerts,
    }));
    return { name: n.name, genesisBlock: n.genesisBlock, orderers };
  }

  /** The genesis JSON (base64 of its text), the chain id and the enode URLs of this console's nodes in it. */
  async function besuPayload(networkId: number) {
    const n = await deps.besu.get(networkId).catch(named("body.networkId"));
    if (!n.genesisConfig) throw new ConflictError(`body.networkId: network '${n.name}' has no genesis to share`);
    const bootnodes: string[] = [];
    for (const deployment of await repo.nodeDeployments(networkId)) {
      try {
        const enode = (JSON.parse(deployment) as { enodeUrl?: unknown }).enodeUrl;
        if (typeof enode === "string" && parseEnodeUrl(enode)) bootnodes.push(enode);
      } catch {
        // A node still being created has no enode URL yet; it is left out.
      }
    }
    return {
      name: n.name,
      genesisBlock: Buffer.from(n.genesisConfig, "utf8").toString("base64"),
      chainId: n.chainId,
      bootnodes,
    };
  }

  return {
    /**
     * A recipient's answer to a network share this console sent: its entry in the share's
     * recipients becomes accepted or rejected, and so does the share's status once every
     * recipient that received it answered the same. Only that recipient's entry can change.
     */
    async receiveAnswer(sender: ConnectionRow, body: WireShareAnswer): Promise<{ shareId: string; status: string }> {
      let applied = false;
      const row = await repo.updateWith(
        body.shareId,
        (r) => {
          if (r.direction !== "sent" || r.kind === "key") return undefined;
          const data = JSON.parse(r.data_json) as { recipients: RecipientResult[]; metadata: Record<string, string> };
          const entry = data.recipients.find((x) => x.recipient === sender.id);
          if (!entry || entry.status === "failed") return undefined;
          applied = true;
          entry.status = body.status;
          const answered = data.recipients.filter((x) => x.status !== "failed");
          const same = answered.every((x) => x.status === body.status);
          return { status: same ? body.status : r.status, data_json: JSON.stringify(data) };
        },
        nowIso(),
      );
      if (!row || !applied)
        throw new NotFoundError(`body.shareId: no network share ${body.shareId} was sent to ${sender.node_id}`);
      return { shareId: row.id, status: row.status };
    },

    /**
     * Sends the network to each recipient and records the share with each one's outcome. When
     * every recipient failed the share is stored as failed and the call answers 502 (sharing again
     * is allowed); otherwise the sender's users get `network.shared`.
     */
    async share(
      platform: Platform,
      body: NetworkShareBody,
      sharedBy: string | null,
    ): Promise<{ response: NetworkShareResponse; networkName: string }> {
      const recipients = await resolveRecipients(deps.connections, body.recipients, (i) => `body.recipients[${i}]`);
      const payload = platform === "fabric" ? await fabricPayload(body.networkId) : await besuPayload(body.networkId);
      const shareId = randomUUID();
      const metadata = body.metadata ?? {};
      const wire: WireNetworkShare = {
        shareId,
        networkId: body.networkId,
        platform,
        sharedBy,
        metadata,
        ...payload,
      };
      const results = await deliver(client, recipients, "/federation/shares/network", wire);
      const sent = results.filter((r) => r.status === "sent");
      const status = sent.length > 0 ? "sent" : "failed";
      const error = sent.length > 0 ? null : results.map((r) => r.error).join("; ");
      const now = nowIso();
      await repo.insert({
        id: shareId,
        direction: "sent",
        kind: platform === "fabric" ? "fabric_network" : "besu_network",
        connection_id: null,
        remote_share_id: null,
        resource_id: String(body.networkId),
        name: payload.name,
        platform,
        data_json: JSON.stringify({ recipients: results, metadata }),
        status,
        error,
        local_network_id: null,
        shared_by: sharedBy,
        expires_at: null,
        created_at: now,
        updated_at: now,
      });
      if (sent.length === 0) {
        throw new UpstreamError(`no recipient received network '${payload.name}': ${error}`, {
          shareId,
          results,
        });
      }
      deps.bus.publish("network.shared", {
        network_id: body.networkId,
        network_name: payload.name,
        platform,
        shared_with_nodes: sent.length,
      });
      return {
        networkName: payload.name,
        response: {
          shareId,
          networkId: body.networkId,
          recipients: body.recipients,
          status,
          metadata,
          genesisBlock: payload.genesisBlock,
          results,
        },
      };
    },
  };
}

export type NetworkShareSender = ReturnType<typeof createNetworkShareSender>;
