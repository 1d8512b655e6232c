import { createHash, sign as opensslSign, type KeyObject } from "node:crypto";
import { sequence, unsignedInteger } from "../crypto/der.js";
import { keySpecOf, signLowS, type EcCurve } from "../crypto/key-algorithms.js";

/** Group orders of the curves Fabric's MSP accepts (P-256, P-384), for moving S to the lower half. */
const ORDER: Partial<Record<EcCurve, bigint>> = {
  "P-256": 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n,
  "P-384": 0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973n,
};

const toBigInt = (b: Uint8Array): bigint => BigInt(`0x${Buffer.from(b).toString("hex") || "0"}`);
const toBytes = (n: bigint): Buffer => {
  const hex = n.toString(16);
  return Buffer.from(hex.length % 2 ? `0${hex}` : hex, "hex");
};

/**
 * A signer of Fabric messages for an EC key: ECDSA over the SHA-256 of the bytes, S in the lower
 * half, DER. Fabric's BCCSP hashes with SHA-256 whatever the curve, and peers and orderers refuse
 * high-S signatures. OpenSSL hashes and signs in ~0.05 ms where signing a digest in pure JS
 * (noble, the only way to sign a given digest) costs ~1 ms of the event loop, which every query
 * and every config signature paid; the high S OpenSSL gives half the time is replaced by n − s,
 * the same signature in its low-S form. Curves without a known order keep the digest path.
 */
export function fabricMessageSigner(key: KeyObject): (message: Uint8Array) => Uint8Array {
  const spec = keySpecOf(key);
  if (spec.algorithm !== "EC") throw new Error("a Fabric message signer needs an EC key");
  const n = ORDER[spec.curve];
  if (n === undefined) {
    return (message) =>
      signLowS(key, createHash("sha256").update(message).digest(), { prehashed: true, encoding: "der" });
  }
  const half = n >> 1n;
  return (message) => {
    const raw = opensslSign("sha256", message, { key, dsaEncoding: "ieee-p1363" });
    const size = raw.length / 2;
    const r = raw.subarray(0, size);
    let s: Uint8Array = raw.subarray(size);
    const sv = toBigInt(s);
    if (sv > half) s = toBytes(n - sv);
    return sequence(unsignedInteger(r), unsignedInteger(s));
  };
}
