import type { KeyObject } from "node:crypto";
import { keySpecOf, loadPublicKey, signMessage, type KeySpec } from "./key-algorithms.js";

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
  /**
   * True for {@link localSigner}: OpenSSL signs the given bytes with the key held in this process, so
   * the check that a new certificate's signature verifies (meant for a remote provider that can sign
   * something else, e.g. a KMS hashing a digest again) has nothing to catch and is skipped.
   */
  inProcess?: boolean;
}

/** A signer over a private key held in this process. */
export function localSigner(privateKey: KeyObject): CertificateSigner {
  return {
    spec: keySpecOf(privateKey),
    publicKey: loadPublicKey(privateKey),
    sign: async (data) => signMessage(privateKey, data, { encoding: "p1363" }),
    inProcess: true,
  };
}
