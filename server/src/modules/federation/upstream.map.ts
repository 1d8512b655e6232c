import { createHash } from "node:crypto";
import type { z } from "zod";
import { parseGenesis } from "../../besu/genesis-import.js";
import { channelSummary } from "../../fabric/configtx/index.js";
import { configFromBlock } from "../../fabric/deliver.js";
import { InputError, errorMessage } from "../../http/errors.js";
import { parseConfigBlock } from "../fabric-networks/fabric-networks.import.js";
import type { WireKeyShare, WireNetworkShare } from "./sharing.wire.js";
import { bytesOf, type receiveKeyBody, type receiveKeyLegacyBody, type receiveNetworkBody } from "./upstream.wire.js";

/**
 * Maps upstream's receive bodies onto this console's share messages, so they go through the same
 * receivers (and the same checks) as /federation/shares/*.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The sender's share id as this console stores it: a UUID as sent, else one derived from what
 * identifies the share (so a repeated delivery is recognised as one).
 */
export function shareUuid(given: string | undefined, ...parts: string[]): string {
  if (given && UUID.test(given)) return given;
  const h = createHash("sha256")
    .update([given ?? "", ...parts].join("\n"))
    .digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** upstream's ReceiveNetworkShareRequest as a share message; Fabric orderers and the Besu chain id are read from the genesis. */
export function networkShareOf(body: z.infer<typeof receiveNetworkBody>): WireNetworkShare {
  const platform = body.platform.toLowerCase();
  if (platform !== "fabric" && platform !== "besu") throw new InputError("body.platform: must be FABRIC or BESU");
  const genesis = bytesOf(body.genesisBlock);
  if (genesis.length < 4) throw new InputError("body.genesisBlock: is empty");
  const b64 = genesis.toString("base64");
  const shareId = shareUuid(body.shareId, String(body.networkId), platform, b64);
  if (platform === "fabric") {
    let orderers: WireNetworkShare["orderers"];
    try {
      const { block } = parseConfigBlock(b64);
      orderers = channelSummary(configFromBlock(block)).orderer.map((o) => ({
        mspId: o.mspId,
        endpoints: o.endpoints,
        tlsCaCerts: o.tlsCaCerts,
      }));
    } catch (err) {
      throw new InputError(`body.genesisBlock: is not a channel config block: ${errorMessage(err)}`);
    }
    return {
      shareId,
      networkId: body.networkId,
      name: body.name,
      platform,
      genesisBlock: b64,
      orderers,
      sharedBy: null,
    };
  }
  let chainId = body.chainId;
  if (chainId === undefined) {
    try {
      ({ chainId } = parseGenesis(JSON.parse(genesis.toString("utf8"))));
    } catch (err) {
      throw new InputError(`body.genesisBlock: is not a Besu genesis JSON: ${errorMessage(err)}`);
    }
  }
  return { shareId, networkId: body.networkId, name: body.name, platform, genesisBlock: b64, chainId, sharedBy: null };
}

/** upstream's ReceiveKeyShareRequest (camelCase) as a key share message. */
export function keyShareOf(body: z.infer<typeof receiveKeyBody>): WireKeyShare {
  return {
    shareId: shareUuid(body.shareId, body.publicKey),
    keyId: body.shareId.slice(0, 64),
    name: body.name,
    algorithm: body.algorithm.toUpperCase(),
    curve: body.curve || null,
    keySize: body.keySize ?? null,
    format: "PEM",
    publicKey: body.publicKey,
    sharedBy: null,
    ...(body.metadata ? { metadata: body.metadata } : {}),
  };
}

/** upstream's pro.ReceiveKeyRequest (snake_case) as a key share message. */
export function legacyKeyShareOf(body: z.infer<typeof receiveKeyLegacyBody>): WireKeyShare {
  return {
    shareId: shareUuid(body.share_id, body.public_key),
    keyId: body.share_id.slice(0, 64),
    name: body.name,
    algorithm: body.algorithm.toUpperCase(),
    curve: body.curve || null,
    keySize: body.key_size ?? null,
    format: "PEM",
    publicKey: body.public_key,
    ethereumAddress: body.ethereum_address || null,
    sharedBy: null,
    ...(body.metadata ? { metadata: body.metadata } : {}),
  };
}
