import { createPublicKey, randomUUID, type KeyObject } from "node:crypto";
import { ethereumAddress, keySpecOf } from "../../crypto/key-algorithms.js";
import { nowIso } from "../../db/db.js";
import { InputError, NotFoundError, UpstreamError, errorMessage } from "../../http/errors.js";
import type { KeysService } from "../keys/keys.service.js";
import type { FederationClient } from "./federation.client.js";
import type { ConnectionRow } from "./federation.repo.js";
import type { KeyShareBody, SharedKeyInfo } from "./sharing.schema.js";
import type { ShareRow, SharingRepo } from "./sharing.repo.js";
import { deliver, resolveRecipients } from "./sharing.send.js";
import type { WireKeyShare } from "./sharing.wire.js";

/** What a received key share keeps in data_json (public material only, read from the key itself). */
interface ReceivedKeyData {
  keyId: string;
  algorithm: string;
  curve: string | null;
  keySize: number | null;
  publicKey: string;
  ethereumAddress: string | null;
  metadata: Record<string, string>;
}

const PUBLIC_PEM = /^-----BEGIN PUBLIC KEY-----\r?\n[A-Za-z0-9+/=\r\n]+-----END PUBLIC KEY-----\s*$/;

/**
 * A received public key: refused (400) when it carries private material, is not a PEM
 * SubjectPublicKeyInfo, or disagrees with what the sender claims about it.
 */
export function checkReceivedKey(body: WireKeyShare): Omit<ReceivedKeyData, "metadata" | "keyId"> {
  const text = body.publicKey.trim();
  const jwkPrivate = (() => {
    try {
      const j = JSON.parse(text) as { d?: unknown };
      return typeof j === "object" && j !== null && "d" in j;
    } catch {
      return false;
    }
  })();
  if (/PRIVATE KEY/.test(text) || jwkPrivate) {
    throw new InputError("body.publicKey: private key material is refused; only public keys can be shared");
  }
  if (!PUBLIC_PEM.test(text)) throw new InputError("body.publicKey: must be a PEM public key (BEGIN PUBLIC KEY)");
  let key: KeyObject;
  try {
    key = createPublicKey(text);
  } catch (err) {
    throw new InputError(`body.publicKey: not a valid public key: ${errorMessage(err)}`);
  }
  if (key.type !== "public") throw new InputError("body.publicKey: must be a public key");
  let spec: ReturnType<typeof keySpecOf>;
  try {
    spec = keySpecOf(key);
  } catch (err) {
    throw new InputError(`body.publicKey: unsupported key type: ${errorMessage(err)}`);
  }
  const curve = spec.algorithm === "EC" ? spec.curve : null;
  const keySize = spec.algorithm === "RSA" ? spec.keySize : null;
  if (body.algorithm !== spec.algorithm) {
    throw new InputError(`body.algorithm: says ${body.algorithm}, the key is ${spec.algorithm}`);
  }
  if ((body.curve ?? null) !== curve) throw new InputError(`body.curve: says ${body.curve}, the key's is ${curve}`);
  const address = curve === "secp256k1" ? ethereumAddress(key) : null;
  if (body.ethereumAddress && body.ethereumAddress.toLowerCase() !== address?.toLowerCase()) {
    throw new InputError(`body.ethereumAddress: ${body.ethereumAddress} is not the key's address`);
  }
  if (body.expiresAt && Number.isNaN(Date.parse(body.expiresAt))) {
    throw new InputError("body.expiresAt: must be an ISO-8601 time");
  }
  return { algorithm: spec.algorithm, curve, keySize, publicKey: text, ethereumAddress: address };
}

/** Key shares: send a key's public part to one connected console; receive and list what others sent. */
export function createKeySharing(deps: {
  repo: SharingRepo;
  connections: () => Promise<ConnectionRow[]>;
  client: FederationClient;
  keys: Pick<KeysService, "get">;
  now?: () => number;
}) {
  const { repo } = deps;
  const now = deps.now ?? Date.now;

  function toInfo(row: ShareRow, nodeIds: Map<number, string>): SharedKeyInfo {
    const d = JSON.parse(row.data_json) as ReceivedKeyData;
    const expired = row.expires_at !== null && row.expires_at <= new Date(now()).toISOString();
    return {
      share_id: row.id,
      key_id: d.keyId,
      name: row.name,
      algorithm: d.algorithm,
      curve: d.curve,
      key_size: d.keySize,
      format: "PEM",
      public_key: d.publicKey,
      ethereum_address: d.ethereumAddress,
      shared_by: row.connection_id,
      shared_by_node_id: nodeIds.get(row.connection_id ?? 0) ?? "",
      shared_at: row.created_at,
      expires_at: row.expires_at,
      status: expired ? "expired" : "active",
      metadata: d.metadata,
    };
  }

  return {
    /**
     * Sends the key's public part (read through the keys service's public read, never a private
     * key accessor). A refusal or an unreachable recipient stores the share as failed and answers 502.
     */
    async share(body: KeyShareBody, sharedBy: string | null) {
      const [conn] = await resolveRecipients(deps.connections, [body.peer_id], () => "body.peer_id");
      const key = await deps.keys.get(body.key_id).catch((err: unknown) => {
        if (err instanceof NotFoundError) throw new NotFoundError(`body.key_id: ${err.message}`);
        throw err;
      });
      if (/PRIVATE KEY/.test(key.publicKey))
        throw new Error(`key ${key.id}: its public key column holds private material`);
      const shareId = randomUUID();
      const expiresAt = body.expires_at ? new Date(body.expires_at).toISOString() : null;
      const metadata = body.metadata ?? {};
      const wire: WireKeyShare = {
        shareId,
        keyId: String(key.id),
        name: key.name,
        algorithm: key.algorithm,
        curve: key.curve,
        keySize: key.keySize,
        format: "PEM",
        publicKey: key.publicKey,
        ethereumAddress: key.ethereumAddress,
        expiresAt,
        sharedBy,
        metadata,
      };
      const [result] = await deliver(deps.client, [conn!], "/federation/shares/key", wire);
      const at = nowIso();
      await repo.insert({
        id: shareId,
        direction: "sent",
        kind: "key",
        connection_id: conn!.id,
        remote_share_id: null,
        resource_id: String(key.id),
        name: key.name,
        platform: null,
        data_json: JSON.stringify({ recipients: [result], metadata }),
        status: result!.status,
        error: result!.error,
        local_network_id: null,
        shared_by: sharedBy,
        expires_at: expiresAt,
        created_at: at,
        updated_at: at,
      });
      if (result!.status !== "sent") {
        throw new UpstreamError(`key '${key.name}' was not shared: ${result!.error}`, { shareId });
      }
      return {
        share_id: shareId,
        key_id: String(key.id),
        peer_id: conn!.id,
        status: "sent" as const,
        shared_at: at,
        expires_at: expiresAt,
        metadata,
      };
    },

    /** Stores a key another console shared (verified sender); a second delivery changes nothing. */
    async receive(sender: ConnectionRow, body: WireKeyShare): Promise<{ shareId: string; status: string }> {
      const checked = checkReceivedKey(body);
      const data: ReceivedKeyData = { keyId: body.keyId, ...checked, metadata: body.metadata ?? {} };
      const at = nowIso();
      const row = await repo.insertReceived({
        id: randomUUID(),
        direction: "received",
        kind: "key",
        connection_id: sender.id,
        remote_share_id: body.shareId,
        resource_id: body.keyId,
        name: body.name,
        platform: null,
        data_json: JSON.stringify(data),
        status: "active",
        error: null,
        local_network_id: null,
        shared_by: body.sharedBy,
        expires_at: body.expiresAt ? new Date(body.expiresAt).toISOString() : null,
        created_at: at,
        updated_at: at,
      });
      const stored = row ?? (await repo.receivedByRemote(sender.id, body.shareId));
      return { shareId: stored?.id ?? "", status: "active" };
    },

    /** GET /pro/keys/shared-with-me: `status` and `expired` both filter on the expiry; contradicting ones match nothing. */
    async list(q: {
      status?: "active" | "expired" | undefined;
      expired?: boolean | undefined;
      limit: number;
      offset: number;
    }) {
      const fromStatus = q.status === undefined ? undefined : q.status === "expired";
      if (fromStatus !== undefined && q.expired !== undefined && fromStatus !== q.expired)
        return { keys: [], total: 0 };
      const expired = q.expired ?? fromStatus;
      const { rows, total } = await repo.listReceivedKeys({
        now: new Date(now()).toISOString(),
        expired,
        limit: q.limit,
        offset: q.offset,
      });
      const nodeIds = new Map((await deps.connections()).map((c) => [c.id, c.node_id]));
      return { keys: rows.map((r) => toInfo(r, nodeIds)), total };
    },
  };
}

export type KeySharing = ReturnType<typeof createKeySharing>;
