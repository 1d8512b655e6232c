/**
 * secp256k1 node-key helpers: the validator address and the enode identity Besu derives
 * from a node's public key.
 *
 * Besu docs (Node keys): "Besu generates the node address by creating a hash of the node
 * public key and using the last 20 bytes of the hash as the node address", and the enode
 * id "is the node public key, excluding the initial 0x" — the 64-byte X‖Y, no 0x04 prefix.
 * https://besu.hyperledger.org/public-networks/concepts/node-keys
 */
import { createPublicKey } from "node:crypto";
import { isIP } from "node:net";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import type { Address, Hex } from "viem";
import { bytesToHex, getAddress, hexToBytes } from "./hex.js";
import { BesuInputError } from "./errors.js";
import { parseInteger, strip0x } from "./encoding.js";

/** A public key as hex (with or without 0x), PEM/SPKI text, or raw bytes. */
export type PublicKeyInput = string | Uint8Array;

const HEX_BODY = /^[0-9a-fA-F]*$/;
const HOSTNAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const ENODE = /^enode:\/\/([0-9a-fA-F]{128})@(\[[0-9a-fA-F:.]+\]|[^:/?#@[\]\s]+):(\d{1,5})(?:\?discport=(\d{1,5}))?$/;

function pemToRawPublicKey(pem: string, field: string): Uint8Array {
  let jwk: { kty?: string; crv?: string; x?: string; y?: string };
  try {
    jwk = createPublicKey(pem).export({ format: "jwk" });
  } catch {
    throw new BesuInputError(field, "is not a readable PEM public key");
  }
  if (jwk.kty !== "EC" || jwk.crv !== "secp256k1" || !jwk.x || !jwk.y) {
    const kind = jwk.crv ?? jwk.kty ?? "unknown";
    throw new BesuInputError(field, `must be a secp256k1 key, got a ${kind} key`);
  }
  const x = Buffer.from(jwk.x, "base64url");
  const y = Buffer.from(jwk.y, "base64url");
  return Uint8Array.from([0x04, ...x, ...y]);
}

function toKeyBytes(publicKey: PublicKeyInput, field: string): Uint8Array {
  if (publicKey instanceof Uint8Array) {
    return publicKey;
  }
  if (typeof publicKey !== "string") {
    throw new BesuInputError(field, "must be a hex string, PEM text or bytes");
  }
  const text = publicKey.trim();
  if (text.startsWith("-----BEGIN")) {
    return pemToRawPublicKey(text, field);
  }
  const body = strip0x(text);
  if (body.length % 2 !== 0 || !HEX_BODY.test(body)) {
    throw new BesuInputError(field, "must be hex with an even number of digits");
  }
  return hexToBytes(`0x${body}`);
}

/**
 * Normalises a secp256k1 public key to its 64-byte X‖Y form after checking the point lies
 * on the curve. Accepts compressed (33 bytes, 02/03), uncompressed (65 bytes, 04), raw
 * X‖Y (64 bytes) as hex or bytes, and PEM/SPKI text.
 */
export function normalizePublicKey(publicKey: PublicKeyInput, field = "publicKey"): Uint8Array {
  const bytes = toKeyBytes(publicKey, field);
  let encoded: Uint8Array;
  if (bytes.length === 64) {
    encoded = Uint8Array.from([0x04, ...bytes]);
  } else if (bytes.length === 65 && bytes[0] === 0x04) {
    encoded = bytes;
  } else if (bytes.length === 33 && (bytes[0] === 0x02 || bytes[0] === 0x03)) {
    encoded = bytes;
  } else {
    throw new BesuInputError(
      field,
      `must be a secp256k1 public key: 33 bytes compressed (02/03…), 65 bytes uncompressed (04…) or 64 bytes X‖Y; got ${bytes.length} bytes`,
    );
  }
  try {
    return secp256k1.Point.fromHex(bytesToHex(encoded).slice(2)).toBytes(false).slice(1);
  } catch {
    throw new BesuInputError(field, "is not a point on the secp256k1 curve");
  }
}

/** The EIP-55 checksummed Ethereum address of a secp256k1 public key (Besu's node address). */
export function addressFromPublicKey(publicKey: PublicKeyInput, field = "publicKey"): Address {
  const xy = normalizePublicKey(publicKey, field);
  return getAddress(bytesToHex(keccak_256(xy).slice(-20)));
}

/** The enode id of a public key: 128 lowercase hex digits, no 0x. */
export function enodeIdFromPublicKey(publicKey: PublicKeyInput, field = "publicKey"): string {
  return bytesToHex(normalizePublicKey(publicKey, field)).slice(2);
}

/**
 * The uncompressed public key (`0x04…`, 65 bytes) of a secp256k1 private key given as
 * 32 bytes of hex (with or without 0x) or bytes.
 */
export function publicKeyFromPrivateKey(privateKey: string | Uint8Array, field = "privateKey"): Hex {
  let bytes: Uint8Array;
  if (typeof privateKey === "string") {
    const body = strip0x(privateKey.trim());
    if (body.length !== 64 || !HEX_BODY.test(body)) {
      throw new BesuInputError(field, "must be 32 bytes of hex (64 hex digits)");
    }
    bytes = hexToBytes(`0x${body}`);
  } else {
    bytes = privateKey;
  }
  if (bytes.length !== 32 || !secp256k1.utils.isValidSecretKey(bytes)) {
    throw new BesuInputError(field, "is not a valid secp256k1 private key (must be 1 ≤ k < n)");
  }
  return bytesToHex(secp256k1.getPublicKey(bytes, false));
}

function checkHost(host: string, field: string): string {
  const h = host.trim();
  if (h === "0.0.0.0" || h === "::") {
    throw new BesuInputError(field, `"${host}" is a wildcard listen address; give the address peers can reach`);
  }
  if (isIP(h) === 6) {
    return `[${h}]`;
  }
  if (isIP(h) === 4 || HOSTNAME.test(h)) {
    return h;
  }
  throw new BesuInputError(field, `must be an IPv4/IPv6 address or a DNS name, got "${host}"`);
}

/**
 * Builds an enode URL, `enode://<id>@<host>:<port>[?discport=<udp>]`. The `discport` query
 * is added only when the UDP discovery port differs from the TCP port, as Besu documents.
 */
export function enodeUrl(publicKey: PublicKeyInput, host: string, port: number, discoveryPort?: number): string {
  const id = enodeIdFromPublicKey(publicKey);
  const hostPart = checkHost(host, "host");
  parseInteger(port, "port", 1, 65535);
  let url = `enode://${id}@${hostPart}:${port}`;
  if (discoveryPort !== undefined && discoveryPort !== port) {
    parseInteger(discoveryPort, "discoveryPort", 1, 65535);
    url += `?discport=${discoveryPort}`;
  }
  return url;
}

/** The parts of an enode URL. */
export interface EnodeUrlParts {
  enodeId: string;
  host: string;
  port: number;
  discoveryPort: number;
}

/**
 * Parses and validates an enode URL (the id must be a point on secp256k1). Returns the
 * lowercase id, the host without IPv6 brackets, and the ports.
 */
export function parseEnodeUrl(url: string, field = "enode"): EnodeUrlParts {
  const m = ENODE.exec(typeof url === "string" ? url.trim() : "");
  if (!m) {
    throw new BesuInputError(field, "must look like enode://<128 hex digits>@<host>:<port>[?discport=<port>]");
  }
  const [, id = "", rawHost = "", portText = "", discText] = m;
  normalizePublicKey(id, field);
  const host = rawHost.startsWith("[") ? rawHost.slice(1, -1) : rawHost;
  checkHost(host, field);
  const port = parseInteger(Number(portText), `${field} port`, 1, 65535);
  const discoveryPort = discText === undefined ? port : parseInteger(Number(discText), `${field} discport`, 1, 65535);
  return { enodeId: id.toLowerCase(), host, port, discoveryPort };
}
