import { createPublicKey, type KeyObject } from "node:crypto";
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

const RECENT_KEYS = 32;

/**
 * The built-in provider: private keys live in our database as AES-256-GCM envelopes under the
 * master key, bound (AAD) to the provider id so a row can't be moved to another provider.
 */
export function createDatabaseProvider(deps: { providerId: number; masterKey: () => Buffer }): KeyProviderDriver {
  const aad = `chainlaunch:key-provider:${deps.providerId}`;
  /**
   * Recently used private keys by their envelope. Creating an organization generates keys and signs
   * with them at once; decrypting and re-parsing each PEM cost ~3 ms of blocked event loop per org.
   * Envelopes are authenticated and have a random IV, so an envelope names exactly one key; the map is
   * small and FIFO so a process holds at most a few dozen parsed keys it has just used.
   */
  const recent = new Map<string, KeyObject>();
  const remember = (envelope: string, key: KeyObject): KeyObject => {
    recent.delete(envelope);
    recent.set(envelope, key);
    if (recent.size > RECENT_KEYS) recent.delete(recent.keys().next().value as string);
    return key;
  };

  function privateKey(stored: StoredKeyMaterial): KeyObject {
    const envelope = stored.privateKeyEncrypted;
    if (!envelope) throw new Error("this key has no private key in the database provider");
    const cached = recent.get(envelope);
    if (cached) return cached;
    return remember(envelope, loadPrivateKey(decryptEnvelopeToString(deps.masterKey(), envelope, aad)));
  }

  return {
    type: "DATABASE",
    async generate(spec) {
      const kp = await generateKeyPair(spec);
      const privateKeyEncrypted = encryptEnvelope(deps.masterKey(), privateKeyToPem(kp.privateKey), aad);
      remember(privateKeyEncrypted, kp.privateKey);
      return {
        providerKeyRef: null,
        privateKeyEncrypted,
        publicKeyPem: publicKeyToPem(kp.publicKey),
        publicKey: kp.publicKey,
      };
    },
    async importPrivateKey(privateKey) {
      const privateKeyEncrypted = encryptEnvelope(deps.masterKey(), privateKeyToPem(privateKey), aad);
      const publicKey = createPublicKey(privateKey);
      return { providerKeyRef: null, privateKeyEncrypted, publicKeyPem: publicKeyToPem(publicKey), publicKey };
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
