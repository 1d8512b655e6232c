import "reflect-metadata";
import { webcrypto, type KeyObject } from "node:crypto";
import type * as x509 from "@peculiar/x509";
import { keySpecOf, loadPublicKey, signatureHashOf, signMessage, type KeySpec } from "./key-algorithms.js";

/**
 * Something that can sign certificates and CRLs: the local (DATABASE) provider signs with a
 * decrypted KeyObject, while a Vault or KMS provider can implement `sign` remotely. The
 * private key never has to be in this process.
 */
export interface CertificateSigner {
  spec: KeySpec;
  /** The signer's public key; used for the Authority Key Identifier and to match the issuer cert. */
  publicKey: KeyObject;
  /**
   * Signs `data` (hashing it with signatureHashOf(spec)). ECDSA signatures must be raw r‖s
   * (IEEE P1363, what WebCrypto returns) with low S; RSA PKCS#1 v1.5; Ed25519 pure.
   */
  sign(data: Uint8Array): Promise<Uint8Array>;
}

/** A signer over a private key held in this process. */
export function localSigner(privateKey: KeyObject): CertificateSigner {
  return {
    spec: keySpecOf(privateKey),
    publicKey: loadPublicKey(privateKey),
    sign: async (data) => signMessage(privateKey, data, { encoding: "p1363" }),
  };
}

type PeculiarCrypto = NonNullable<Parameters<typeof x509.X509CertificateGenerator.create>[1]>;

/** WebCrypto algorithm names as @peculiar/x509 maps them to X.509 OIDs. */
function webAlgorithms(spec: KeySpec): { key: Record<string, unknown>; signing: Record<string, unknown> } {
  const hash = signatureHashOf(spec);
  switch (spec.algorithm) {
    case "EC": {
      const namedCurve = spec.curve === "secp256k1" ? "K-256" : spec.curve;
      return { key: { name: "ECDSA", namedCurve }, signing: { name: "ECDSA", hash: { name: hash } } };
    }
    case "RSA":
      return { key: { name: "RSASSA-PKCS1-v1_5" }, signing: { name: "RSASSA-PKCS1-v1_5", hash: { name: hash } } };
    case "ED25519":
      return { key: { name: "Ed25519" }, signing: { name: "Ed25519" } };
  }
}

/**
 * Adapts a CertificateSigner to what @peculiar/x509 generators expect: a key whose `algorithm`
 * names the signature algorithm, and a Crypto whose `subtle.sign` we route to the signer. This
 * is how certificate signatures get low-S ECDSA (WebCrypto doesn't normalise S).
 */
export function peculiarSigningParams(signer: CertificateSigner): {
  signingKey: webcrypto.CryptoKey;
  signingAlgorithm: x509.X509CrlCreateParams["signingAlgorithm"];
  crypto: PeculiarCrypto;
} {
  const algs = webAlgorithms(signer.spec);
  const signingKey = {
    algorithm: algs.key,
    type: "private",
    extractable: false,
    usages: ["sign"],
  } as unknown as webcrypto.CryptoKey;
  const subtle = {
    sign: async (_alg: unknown, _key: unknown, data: ArrayBuffer | ArrayBufferView): Promise<ArrayBuffer> => {
      const bytes = ArrayBuffer.isView(data)
        ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
        : new Uint8Array(data);
      const sig = await signer.sign(bytes);
      return sig.buffer.slice(sig.byteOffset, sig.byteOffset + sig.byteLength) as ArrayBuffer;
    },
    exportKey: webcrypto.subtle.exportKey.bind(webcrypto.subtle),
    digest: webcrypto.subtle.digest.bind(webcrypto.subtle),
  };
  const crypto = {
    subtle,
    getRandomValues: webcrypto.getRandomValues.bind(webcrypto),
  } as unknown as PeculiarCrypto;
  return {
    signingKey,
    signingAlgorithm: algs.signing as unknown as x509.X509CrlCreateParams["signingAlgorithm"],
    crypto,
  };
}
