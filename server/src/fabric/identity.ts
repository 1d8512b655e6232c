import { X509Certificate, type KeyObject } from "node:crypto";
import { msp } from "@hyperledger/fabric-protos";
import { CryptoInputError } from "../crypto/errors.js";
import { keySpecOf, loadPrivateKey, loadPublicKey, publicKeyToDer, signMessage } from "../crypto/key-algorithms.js";
import { fabricMessageSigner } from "./sign.js";

/**
 * A Fabric signing identity: what a client puts in `SignatureHeader.creator` and signs with.
 * Messages are signed the way Fabric's BCCSP does: SHA-256 of the bytes, ECDSA with low S
 * (peers and orderers reject high-S signatures), DER-encoded; Ed25519 signs the bytes.
 */
export interface SigningIdentity {
  mspId: string;
  certPem: string;
  /** msp.SerializedIdentity{mspid, id_bytes = PEM}. */
  serialize(): Uint8Array;
  sign(message: Uint8Array): Uint8Array;
}

/**
 * Creates a signing identity from an MSP id, a certificate and its private key (PEM or a
 * KeyObject). The key must belong to the certificate.
 * @throws CryptoInputError("privateKey") when it does not
 */
export function createSigningIdentity(params: {
  mspId: string;
  certPem: string;
  privateKey: string | KeyObject;
}): SigningIdentity {
  const key = typeof params.privateKey === "string" ? loadPrivateKey(params.privateKey) : params.privateKey;
  const certKey = new X509Certificate(params.certPem).publicKey;
  if (!publicKeyToDer(loadPublicKey(key)).equals(publicKeyToDer(certKey))) {
    throw new CryptoInputError("privateKey", `the private key does not belong to the certificate of ${params.mspId}`);
  }
  const spec = keySpecOf(key);
  const certPem = params.certPem.endsWith("\n") ? params.certPem : `${params.certPem}\n`;
  const serialized = new msp.SerializedIdentity();
  serialized.setMspid(params.mspId);
  serialized.setIdBytes(Buffer.from(certPem, "utf8"));
  const bytes = serialized.serializeBinary();
  return {
    mspId: params.mspId,
    certPem,
    serialize: () => bytes,
    sign: spec.algorithm === "EC" ? fabricMessageSigner(key) : (message) => signMessage(key, message),
  };
}
