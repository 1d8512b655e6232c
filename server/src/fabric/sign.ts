import type { KeyObject } from "node:crypto";
import { keySpecOf, signLowS } from "../crypto/key-algorithms.js";

/**
 * A signer of Fabric messages for an EC key: ECDSA over the SHA-256 of the bytes, S in the lower
 * half, DER. Fabric's BCCSP hashes with SHA-256 whatever the curve, and peers and orderers refuse
 * high-S signatures. The whole message goes to OpenSSL (~0.05 ms), which {@link signLowS} then
 * normalises; signing the digest in pure JS (noble, the only way to sign a given digest) costs
 * ~1 ms of the event loop, which every query and every config signature paid.
 */
export function fabricMessageSigner(key: KeyObject): (message: Uint8Array) => Uint8Array {
  if (keySpecOf(key).algorithm !== "EC") throw new Error("a Fabric message signer needs an EC key");
  return (message) => signLowS(key, message, { hash: "sha256", encoding: "der" });
}
