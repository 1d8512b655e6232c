import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from "node:crypto";
import { generateDetachedKeyPair } from "../../crypto/key-algorithms.js";

/**
 * The cryptography of federation, with no database or HTTP: Ed25519 identities, the node id derived
 * from a public key, compact JWS (alg EdDSA) for invitations, and the canonical string that signs
 * every request between consoles. Ed25519 signatures are deterministic and have no malleable
 * S value to normalise, which is why it was chosen over P-256 here.
 */

const B64URL = /^[A-Za-z0-9_-]*$/;

export function b64url(data: Buffer | string): string {
  return Buffer.from(data).toString("base64url");
}

/** Decodes base64url strictly (no padding, no other alphabet); undefined when malformed. */
export function fromB64url(text: string): Buffer | undefined {
  if (!B64URL.test(text)) return undefined;
  const out = Buffer.from(text, "base64url");
  return out.toString("base64url") === text ? out : undefined;
}

export function sha256Hex(data: Buffer | string): string {
  return createHash("sha256").update(data).digest("hex");
}

/** `cl-` + the first 32 hex characters (128 bits) of SHA-256 of the raw 32-byte public key. */
export function nodeIdOf(publicKeyRaw: Buffer): string {
  return `cl-${sha256Hex(publicKeyRaw).slice(0, 32)}`;
}

export const NODE_ID_PATTERN = /^cl-[0-9a-f]{32}$/;

export interface GeneratedIdentity {
  /** The raw 32-byte public key, base64url. */
  publicKey: string;
  nodeId: string;
  /** PKCS#8 DER of the private key; the caller encrypts it before it is stored. */
  privateKeyDer: Buffer;
}

export function generateIdentity(): GeneratedIdentity {
  // Not generateKeyPairSync's own objects: exporting one of those can deadlock Node 20 (crypto/key-algorithms.ts).
  const { publicKey, privateKey } = generateDetachedKeyPair("ed25519");
  const raw = rawPublicKey(publicKey);
  return {
    publicKey: b64url(raw),
    nodeId: nodeIdOf(raw),
    privateKeyDer: privateKey.export({ format: "der", type: "pkcs8" }),
  };
}

export function rawPublicKey(key: KeyObject): Buffer {
  const jwk = key.export({ format: "jwk" });
  return Buffer.from(jwk.x ?? "", "base64url");
}

/** The public key object of a raw 32-byte Ed25519 key in base64url; undefined when it is not one. */
export function publicKeyFromB64url(text: string): KeyObject | undefined {
  const raw = fromB64url(text);
  if (!raw || raw.length !== 32) return undefined;
  try {
    return createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: text }, format: "jwk" });
  } catch {
    return undefined;
  }
}

export function privateKeyFromDer(der: Buffer): KeyObject {
  return createPrivateKey({ key: der, format: "der", type: "pkcs8" });
}

export function signEd25519(key: KeyObject, data: string | Buffer): string {
  return b64url(sign(null, Buffer.from(data), key));
}

export function verifyEd25519(key: KeyObject, data: string | Buffer, signatureB64url: string): boolean {
  const sig = fromB64url(signatureB64url);
  if (!sig || sig.length !== 64) return false;
  return verify(null, Buffer.from(data), key, sig);
}

/** Compact JWS with alg EdDSA: `base64url(header).base64url(claims).base64url(signature)`. */
export function signJws(claims: Record<string, unknown>, key: KeyObject): string {
  const input = `${b64url(JSON.stringify({ alg: "EdDSA", typ: "JWT" }))}.${b64url(JSON.stringify(claims))}`;
  return `${input}.${signEd25519(key, input)}`;
}

export interface DecodedJws {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
  signingInput: string;
  signature: string;
}

/** Splits and decodes a compact JWS without checking its signature; a string saying why when malformed. */
export function decodeJws(token: string): DecodedJws | string {
  const parts = token.split(".");
  if (parts.length !== 3) return "it is not a compact JWS (three base64url parts separated by dots)";
  const [h, c, s] = parts as [string, string, string];
  const json = (part: string): Record<string, unknown> | undefined => {
    const bytes = fromB64url(part);
    if (!bytes) return undefined;
    try {
      const v: unknown = JSON.parse(bytes.toString("utf8"));
      return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  };
  const header = json(h);
  const claims = json(c);
  if (!header) return "its header is not base64url JSON";
  if (!claims) return "its claims are not base64url JSON";
  if (!fromB64url(s)) return "its signature is not base64url";
  return { header, claims, signingInput: `${h}.${c}`, signature: s };
}

/** What a request between consoles signs (docs/federation.md, "Transport"). */
export interface SignedParts {
  method: string;
  /** The federation route, e.g. `/federation/nodes` (below /api/v1, without the query). */
  path: string;
  from: string;
  to: string;
  timestamp: number;
  nonce: string;
  body: Buffer | string;
}

/** One line per part; the body goes in as its SHA-256, so the string has a fixed shape. */
export function canonicalString(p: SignedParts): string {
  return [
    "chainlaunch-federation-v1",
    p.method.toUpperCase(),
    p.path,
    p.from,
    p.to,
    String(p.timestamp),
    p.nonce,
    sha256Hex(p.body),
  ].join("\n");
}
