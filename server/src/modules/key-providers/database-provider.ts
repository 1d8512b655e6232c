import { decryptEnvelopeToString, encryptEnvelope } from "../../crypto/envelope.js";
import {
  generateKeyPair,
  keySpecOf,
  loadPrivateKey,
  privateKeyToPem,
  publicKeyToPem,
  signLowS,
  signMessage,
} from "../../crypto/key-algorithms.js";
import { localSigner } from "../../crypto/signer.js";
import type { KeyProviderDriver, StoredKeyMaterial } from "./provider.js";

/**
 * The built-in provider: private keys live in our database as AES-256-GCM envelopes under the
 * master key, bound (AAD) to the provider id so a row can't be moved to another provider.
 */
export function createDatabaseProvider(deps: { providerId: number; masterKey: () => Buffer }): KeyProviderDriver {
  const aad = `chainlaunch:key-provider:${deps.providerId}`;

  function privateKey(stored: StoredKeyMaterial): ReturnType<typeof loadPrivateKey> {
    if (!stored.privateKeyEncrypted) throw new Error("this key has no private key in the database provider");
    return loadPrivateKey(decryptEnvelopeToString(deps.masterKey(), stored.privateKeyEncrypted, aad));
  }

  return {
    type: "DATABASE",
    async generate(spec) {
      const kp = await generateKeyPair(spec);
      return {
        providerKeyRef: null,
        privateKeyEncrypted: encryptEnvelope(deps.masterKey(), privateKeyToPem(kp.privateKey), aad),
        publicKeyPem: publicKeyToPem(kp.publicKey),
        publicKey: kp.publicKey,
      };
    },
    async signer(stored) {
      return localSigner(privateKey(stored));
    },
    async sign(stored, data, opts = {}) {
      const key = privateKey(stored);
      if (keySpecOf(key).algorithm === "EC") return signLowS(key, data, opts);
      return signMessage(key, data, opts);
    },
    async getPublicKey(stored) {
      return stored.publicKeyPem;
    },
    async exportPrivateKeyPem(stored) {
      return privateKeyToPem(privateKey(stored));
    },
    async delete() {
      // The key is the row; deleting the row deletes it.
    },
  };
}
