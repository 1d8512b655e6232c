import { randomUUID } from "node:crypto";
import { nowIso } from "../../db/db.js";
import { InputError, NotFoundError, UpstreamError } from "../../http/errors.js";
import { GO_ZERO_TIME } from "../../http/schema-helpers.js";
import type { FederationClient } from "./federation.client.js";
import type { ConnectionRow } from "./federation.repo.js";
import type { RecipientResult } from "./sharing.schema.js";
import type { ShareRow, SharingRepo } from "./sharing.repo.js";
import { deliver, resolveRecipients } from "./sharing.send.js";
import type { ReceiveChaincodeBody } from "./upstream.wire.js";

/** The path a chaincode share is delivered on (upstream's route, served by this console too). */
export const RECEIVE_CHAINCODE_PATH = "/pro/receive/chaincode";

export interface ChaincodeShareInput {
  chaincodeId: string;
  version: string;
  sequence: number;
  dockerImage?: string | undefined;
  expiresAt?: string | undefined;
  metadata?: Record<string, string> | undefined;
  recipients: number[];
}

/** What a chaincode share row keeps in data_json. */
interface ChaincodeShareData {
  chaincodeId: string;
  name: string;
  channelName: string;
  version: string;
  sequence: number;
  dockerImage: string;
  metadata: Record<string, string>;
  /** Sent shares: each recipient's outcome. */
  recipients?: RecipientResult[];
}

/**
 * Chaincode definition shares (upstream's /pro/sharing/chaincode and /pro/shared-chaincodes): a
 * notice of a definition (name, channel, version, sequence, image) sent to chosen connections and
 * kept in federation_shares (kind `chaincode`) on both sides. No source travels: that is what a
 * chaincode proposal does (docs/governance.md).
 */
export function createChaincodeSharing(deps: {
  repo: SharingRepo;
  connections: () => Promise<ConnectionRow[]>;
  client: FederationClient;
}) {
  const { repo } = deps;

  function toResponse(row: ShareRow, nodeIds: Map<number, string>, myNodeId: string) {
    const d = JSON.parse(row.data_json) as ChaincodeShareData;
    const sent = row.direction === "sent";
    return {
      id: row.id,
      connectionId: row.connection_id,
      createdAt: row.created_at,
      dataJson: d,
      recipients: sent ? (d.recipients ?? []).map((r) => r.recipient) : [],
      resourceId: row.resource_id,
      resourceType: "chaincode",
      sharedBy: row.shared_by ?? "",
      sharedByNodeId: sent ? myNodeId : (nodeIds.get(row.connection_id ?? 0) ?? ""),
      status: row.status,
      direction: row.direction as "sent" | "received",
      expiresAt: row.expires_at,
    };
  }

  return {
    /**
     * Sends the definition of a chaincode of this console to each recipient (a failure fails that
     * recipient only). When every recipient failed the share is stored as failed and the answer is 502.
     */
    async share(body: ChaincodeShareInput, sharedBy: string | null) {
      const id = /^\d{1,10}$/.test(body.chaincodeId) ? Number(body.chaincodeId) : NaN;
      const cc = Number.isSafeInteger(id) ? await repo.chaincode(id) : undefined;
      if (!cc) throw new NotFoundError(`body.chaincodeId: no chaincode ${body.chaincodeId} on this console`);
      if (body.recipients.length === 0) throw new InputError("body.recipients: at least one connection id");
      if (body.expiresAt && Number.isNaN(Date.parse(body.expiresAt)))
        throw new InputError("body.expiresAt: must be an RFC 3339 time");
      const conns = await resolveRecipients(deps.connections, body.recipients, (i) => `body.recipients[${i}]`);
      const shareId = randomUUID();
      const metadata = body.metadata ?? {};
      const data: ChaincodeShareData = {
        chaincodeId: String(cc.id),
        name: cc.name,
        channelName: cc.channel,
        version: body.version,
        sequence: body.sequence,
        dockerImage: body.dockerImage ?? "",
        metadata,
      };
      const results = await deliver(deps.client, conns, RECEIVE_CHAINCODE_PATH, {
        shareId,
        chaincodeId: data.chaincodeId,
        name: data.name,
        channelName: data.channelName,
        version: data.version,
        sequence: data.sequence,
        dockerImage: data.dockerImage,
        metadata,
        sharedBy: sharedBy ?? "",
      });
      const ok = results.some((r) => r.status === "sent");
      // Go's zero time is how a Go client says "no expiry".
      const expiresAt =
        body.expiresAt && body.expiresAt !== GO_ZERO_TIME ? new Date(body.expiresAt).toISOString() : null;
      const at = nowIso();
      await repo.insert({
        id: shareId,
        direction: "sent",
        kind: "chaincode",
        connection_id: null,
        remote_share_id: null,
        resource_id: data.chaincodeId,
        name: cc.name,
        platform: "fabric",
        data_json: JSON.stringify({ ...data, recipients: results }),
        status: ok ? "sent" : "failed",
        error: ok ? null : results.map((r) => r.error).join("; "),
        local_network_id: null,
        shared_by: sharedBy,
        expires_at: expiresAt,
        created_at: at,
        updated_at: at,
      });
      if (!ok) {
        throw new UpstreamError(`chaincode '${cc.name}' was not shared: ${results.map((r) => r.error).join("; ")}`, {
          shareId,
        });
      }
      return {
        shareId,
        chaincodeId: data.chaincodeId,
        version: data.version,
        sequence: data.sequence,
        dockerImage: data.dockerImage,
        metadata,
        recipients: body.recipients,
        expiresAt: expiresAt ?? "",
        status: "sent",
        results,
      };
    },

    /** Stores a definition another console shared (verified sender); a second delivery changes nothing. */
    async receive(sender: ConnectionRow, body: ReceiveChaincodeBody): Promise<{ shareId: string; status: string }> {
      const data: ChaincodeShareData = {
        chaincodeId: body.chaincodeId,
        name: body.name || body.metadata?.name || body.chaincodeId,
        channelName: body.channelName ?? body.metadata?.channelName ?? "",
        version: body.version,
        sequence: body.sequence,
        dockerImage: body.dockerImage ?? "",
        metadata: body.metadata ?? {},
      };
      const at = nowIso();
      const row = await repo.insertReceived({
        id: randomUUID(),
        direction: "received",
        kind: "chaincode",
        connection_id: sender.id,
        remote_share_id: body.shareId,
        resource_id: body.chaincodeId,
        name: data.name,
        platform: "fabric",
        data_json: JSON.stringify(data),
        status: "received",
        error: null,
        local_network_id: null,
        shared_by: body.sharedBy ?? null,
        expires_at: null,
        created_at: at,
        updated_at: at,
      });
      const stored = row ?? (await repo.receivedByRemote(sender.id, body.shareId));
      return { shareId: stored?.id ?? "", status: stored?.status ?? "received" };
    },

    async list(myNodeId: string, direction?: "sent" | "received") {
      const nodeIds = new Map((await deps.connections()).map((c) => [c.id, c.node_id]));
      return (await repo.listKind("chaincode", direction)).map((r) => toResponse(r, nodeIds, myNodeId));
    },

    async get(myNodeId: string, id: string) {
      const row = await repo.byId(id);
      if (!row || row.kind !== "chaincode") throw new NotFoundError(`shared chaincode ${id} not found`);
      const nodeIds = new Map((await deps.connections()).map((c) => [c.id, c.node_id]));
      return toResponse(row, nodeIds, myNodeId);
    },
  };
}

export type ChaincodeSharing = ReturnType<typeof createChaincodeSharing>;
