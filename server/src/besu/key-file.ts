/**
 * The node key file Besu reads with `--node-private-key-file`.
 *
 * Besu (`KeyPairUtil`) reads the file with `Files.readAllLines`, requires exactly one line
 * and parses it with `Bytes32.fromHexString`; when it generates a key itself it writes
 * `0x` + 64 lowercase hex digits with no trailing newline. We write that same form.
 * Source: hyperledger/besu crypto/algorithms/src/main/java/org/hyperledger/besu/crypto/KeyPairUtil.java
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import type { Hex } from "viem";
import { bytesToHex, hexToBytes } from "./hex.js";
import { BesuInputError } from "./errors.js";

const KEY_LINE = /^(?:0x)?([0-9a-fA-F]{64})$/;

function checkScalar(bytes: Uint8Array, field: string): void {
  if (!secp256k1.utils.isValidSecretKey(bytes)) {
    throw new BesuInputError(field, "is not a valid secp256k1 private key (must be 1 ≤ k < n)");
  }
}

/**
 * Formats a 32-byte secp256k1 private key as Besu's key file content:
 * `0x` + 64 lowercase hex digits, no newline.
 */
export function formatNodeKeyFile(privateKey: string | Uint8Array, field = "privateKey"): string {
  let bytes: Uint8Array;
  if (typeof privateKey === "string") {
    const m = KEY_LINE.exec(privateKey.trim());
    if (!m) {
      throw new BesuInputError(field, "must be 32 bytes of hex (64 hex digits, optional 0x)");
    }
    bytes = hexToBytes(`0x${m[1]}`);
  } else {
    if (privateKey.length !== 32) {
      throw new BesuInputError(field, `must be 32 bytes, got ${privateKey.length}`);
    }
    bytes = privateKey;
  }
  checkScalar(bytes, field);
  return bytesToHex(bytes);
}

/**
 * Parses key file content the way Besu does: exactly one line (a single trailing `\n` or
 * `\r\n` is tolerated, as `readAllLines` drops it) holding 32 bytes of hex, with or
 * without 0x. Returns the key as lowercase `0x` hex.
 */
export function parseNodeKeyFile(content: string, field = "keyFile"): Hex {
  const withoutFinalEol = content.replace(/\r?\n$/, "");
  if (/[\r\n]/.test(withoutFinalEol)) {
    throw new BesuInputError(field, "must hold exactly one line; Besu rejects key files with more");
  }
  const m = KEY_LINE.exec(withoutFinalEol);
  if (!m) {
    throw new BesuInputError(field, "must be 32 bytes of hex (64 hex digits, optional 0x) with no surrounding spaces");
  }
  const bytes = hexToBytes(`0x${m[1]}`);
  checkScalar(bytes, field);
  return bytesToHex(bytes);
}
