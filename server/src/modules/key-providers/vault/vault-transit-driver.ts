import { createHash, randomUUID, type KeyObject } from "node:crypto";
import { p256, p384, p521 } from "@noble/curves/nist.js";
import { decryptEnvelopeToString, encryptEnvelope } from "../../../crypto/envelope.js";
import {
  generateKeyPair,
  keySpecOf,
  loadPrivateKey,
  loadPublicKey,
  privateKeyToPem,
  publicKeyToPem,
  signatureHashOf,
  signLowS,
  type KeySpec,
  type SignatureEncoding,
} from "../../../crypto/key-algorithms.js";
import { InputError, UpstreamError } from "../../../http/errors.js";
import type { KeyProviderDriver, StoredKeyMaterial } from "../provider.js";
import { createVaultPki, isPkiRef } from "./vault-pki.js";
import { dataOf, vaultErrorText, vaultRequest, type VaultEndpoint, type VaultResponse } from "./vault-http.js";

/** What the driver needs of its provider at each call (a managed Vault's address and token change on start). */
export interface VaultTarget {
  providerId: number;
  providerName: string;
  endpoint: VaultEndpoint;
  transitMount: string;
  kvMount: string;
  pkiMount: string;
}

/** One Vault request of a driver: refusals become errors naming the provider and what failed. */
export type VaultCall = (
  what: string,
  method: "GET" | "POST" | "DELETE",
  path: (t: VaultTarget) => string,
  body?: unknown,
  ok?: number[],
) => Promise<VaultResponse>;

/** Transit key type per key spec; secp256k1 has none (it is kept in KV, see below). */
function transitType(spec: KeySpec): string | undefined {
  if (spec.algorithm === "ED25519") return "ed25519";
  if (spec.algorithm === "RSA") return `rsa-${spec.keySize}`;
  if (spec.curve === "secp256k1") return undefined;
  return { "P-256": "ecdsa-p256", "P-384": "ecdsa-p384", "P-521": "ecdsa-p521" }[spec.curve];
}

const HASH: Record<string, { node: string; transit: string }> = {
  "SHA-256": { node: "sha256", transit: "sha2-256" },
  "SHA-384": { node: "sha384", transit: "sha2-384" },
  "SHA-512": { node: "sha512", transit: "sha2-512" },
};
/** A digest's hash by its length, for `prehashed` input. */
const BY_LENGTH: Record<number, string> = { 32: "SHA-256", 48: "SHA-384", 64: "SHA-512" };
const NOBLE = { "P-256": p256, "P-384": p384, "P-521": p521 } as const;

/** SPKI prefix of an Ed25519 public key (RFC 8410): transit hands out the raw 32 bytes. */
const ED25519_SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

/**
 * Keys inside Vault's transit engine: created there as non-exportable keys, used through
 * /transit/sign, never read back. secp256k1, which transit lacks, is generated here and stored in
 * KV v2 as an envelope under the console's master key (so Vault alone can't read it, and our
 * database never holds it); signing reads it back for the one operation.
 */
export function createVaultDriver(deps: {
  target: () => Promise<VaultTarget>;
  masterKey: () => Buffer;
  /** "pki": self-signed CA keys become PKI issuers (see vault-pki.ts). */
  caEngine?: "transit" | "pki";
}): KeyProviderDriver {
  /** Runs a request and turns Vault's refusals into errors naming the provider. */
  const call: VaultCall = async (what, method, path, body, ok = [200, 204]) => {
    const t = await deps.target();
    let res: VaultResponse;
    try {
      res = await vaultRequest(t.endpoint, method, path(t), body);
    } catch (err) {
      throw new UpstreamError(`Vault provider "${t.providerName}": ${(err as Error).message}`);
    }
    if (ok.includes(res.status)) return res;
    const reason = vaultErrorText(res);
    const hint = res.status === 503 ? " (the Vault is sealed or stopped; start or unseal it)" : "";
    throw new UpstreamError(`Vault provider "${t.providerName}": ${what} failed: ${reason}${hint}`);
  };
  const pki = createVaultPki({ call });

  const kvPath = (t: VaultTarget, kind: "data" | "metadata", ref: string) =>
    `/v1/${t.kvMount}/${kind}/chainlaunch/keys/${encodeURIComponent(ref)}`;
  const kvAad = (providerId: number, ref: string) => `chainlaunch:vault-kv-key:${providerId}:${ref}`;

  async function kvPrivateKey(ref: string): Promise<KeyObject> {
    const t = await deps.target();
    const res = await call(`reading key ${ref}`, "GET", (x) => kvPath(x, "data", ref));
    const envelope = (dataOf(res).data as Record<string, unknown> | undefined)?.envelope;
    if (typeof envelope !== "string")
      throw new UpstreamError(`Vault provider "${t.providerName}": key ${ref} has no envelope`);
    return loadPrivateKey(decryptEnvelopeToString(deps.masterKey(), envelope, kvAad(t.providerId, ref)));
  }

  function refOf(stored: StoredKeyMaterial): string {
    if (!stored.providerKeyRef) throw new InputError("keyId: this key has no Vault key reference");
    if (isPkiRef(stored.providerKeyRef)) {
      throw new InputError(
        "keyId: this key is a Vault PKI issuer: Vault issues its certificates and CRLs, and it signs nothing else",
      );
    }
    return stored.providerKeyRef;
  }

  const isKv = (stored: StoredKeyMaterial): boolean => {
    const spec = keySpecOf(loadPublicKey(stored.publicKeyPem));
    return spec.algorithm === "EC" && spec.curve === "secp256k1";
  };

  /**
   * Signs through transit. ECDSA and RSA always send a digest (hashed here unless `prehashed`), so
   * the hash is ours to choose: signatureHashOf(spec), as certificates announce it. Transit's ECDSA
   * signatures are DER and not low-S; S is normalised here because Fabric rejects high-S.
   */
  async function transitSign(
    stored: StoredKeyMaterial,
    data: Uint8Array,
    opts: { prehashed?: boolean; encoding?: SignatureEncoding },
  ): Promise<Uint8Array> {
    const ref = refOf(stored);
    const spec = keySpecOf(loadPublicKey(stored.publicKeyPem));
    let body: Record<string, unknown>;
    let url: (t: VaultTarget) => string;
    if (spec.algorithm === "ED25519") {
      body = { input: Buffer.from(data).toString("base64") };
      url = (t) => `/v1/${t.transitMount}/sign/${encodeURIComponent(ref)}`;
    } else {
      const hashName = opts.prehashed ? BY_LENGTH[data.length] : signatureHashOf(spec);
      const hash = hashName ? HASH[hashName] : undefined;
      if (!hash) throw new InputError(`data: a prehashed digest must be 32, 48 or 64 bytes, got ${data.length}`);
      const digest = opts.prehashed ? Buffer.from(data) : createHash(hash.node).update(data).digest();
      body = {
        input: digest.toString("base64"),
        prehashed: true,
        ...(spec.algorithm === "RSA" ? { signature_algorithm: "pkcs1v15" } : { marshaling_algorithm: "asn1" }),
      };
      url = (t) => `/v1/${t.transitMount}/sign/${encodeURIComponent(ref)}/${hash.transit}`;
    }
    const res = await call(`signing with key ${ref}`, "POST", url, body);
    const signature = dataOf(res).signature;
    if (typeof signature !== "string") throw new UpstreamError(`Vault answered no signature for key ${ref}`);
    const raw = Buffer.from(signature.replace(/^vault:v\d+:/, ""), "base64");
    if (spec.algorithm !== "EC" || spec.curve === "secp256k1") return raw;
    const sig = NOBLE[spec.curve].Signature.fromDER(raw).normalizeS();
    return opts.encoding === "p1363" ? sig.toCompactRawBytes() : sig.toDERRawBytes();
  }

  async function sign(
    stored: StoredKeyMaterial,
    data: Uint8Array,
    opts: { prehashed?: boolean; encoding?: SignatureEncoding } = {},
  ): Promise<Uint8Array> {
    if (isKv(stored)) return signLowS(await kvPrivateKey(refOf(stored)), data, opts);
    return transitSign(stored, data, opts);
  }

  return {
    type: "VAULT",
    ...(deps.caEngine === "pki" ? { generateCa: pki.generateCa } : {}),
    certificateAuthority: pki.certificateAuthority,
    async generate(spec) {
      const ref = `cl-${randomUUID()}`;
      const type = transitType(spec);
      if (!type) {
        const t = await deps.target();
        const kp = await generateKeyPair(spec);
        const envelope = encryptEnvelope(deps.masterKey(), privateKeyToPem(kp.privateKey), kvAad(t.providerId, ref));
        const publicKeyPem = publicKeyToPem(kp.publicKey);
        await call(`storing key ${ref}`, "POST", (x) => kvPath(x, "data", ref), {
          data: { envelope, publicKey: publicKeyPem, algorithm: "secp256k1" },
        });
        return { providerKeyRef: ref, privateKeyEncrypted: null, publicKeyPem, publicKey: kp.publicKey };
      }
      const res = await call(`creating a ${type} key`, "POST", (t) => `/v1/${t.transitMount}/keys/${ref}`, {
        type,
        exportable: false,
      });
      let key = dataOf(res).keys as Record<string, { public_key?: string }> | undefined;
      if (!key?.["1"]?.public_key) {
        // Older servers answer 204 to a create: read the key.
        const read = await call(`reading key ${ref}`, "GET", (t) => `/v1/${t.transitMount}/keys/${ref}`);
        key = dataOf(read).keys as Record<string, { public_key?: string }> | undefined;
      }
      const published = key?.["1"]?.public_key ?? "";
      const publicKey =
        type === "ed25519"
          ? loadPublicKey(Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(published, "base64")]))
          : loadPublicKey(published);
      return { providerKeyRef: ref, privateKeyEncrypted: null, publicKeyPem: publicKeyToPem(publicKey), publicKey };
    },
    async signer(stored) {
      refOf(stored);
      const publicKey = loadPublicKey(stored.publicKeyPem);
      const spec = keySpecOf(publicKey);
      return { spec, publicKey, sign: (data) => sign(stored, data, { encoding: "p1363" }) };
    },
    sign,
    async getPublicKey(stored) {
      return stored.publicKeyPem;
    },
    async delete(stored) {
      if (stored.providerKeyRef && isPkiRef(stored.providerKeyRef)) return pki.delete(stored.providerKeyRef);
      const ref = refOf(stored);
      if (isKv(stored)) {
        await call(`deleting key ${ref}`, "DELETE", (t) => kvPath(t, "metadata", ref), undefined, [200, 204, 404]);
        return;
      }
      const config = await call(
        `allowing deletion of key ${ref}`,
        "POST",
        (t) => `/v1/${t.transitMount}/keys/${ref}/config`,
        { deletion_allowed: true },
        [200, 204, 404],
      );
      if (config.status === 404) return;
      await call(
        `deleting key ${ref}`,
        "DELETE",
        (t) => `/v1/${t.transitMount}/keys/${ref}`,
        undefined,
        [200, 204, 404],
      );
    },
  };
}
