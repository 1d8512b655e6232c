import type { KeyObject } from "node:crypto";
import type { KeySpec, SignatureEncoding } from "../../crypto/key-algorithms.js";
import type { CertificateSigner } from "../../crypto/signer.js";

export const PROVIDER_TYPES = ["DATABASE", "VAULT", "HSM", "AWS_KMS"] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

/** What a provider hands back for storage in the keys table. Never a plaintext private key. */
export interface StoredKeyMaterial {
  /** The key's id inside a remote provider (Vault transit name, KMS key id); null for DATABASE. */
  providerKeyRef: string | null;
  /** AES-256-GCM envelope of the private key (DATABASE only). */
  privateKeyEncrypted: string | null;
  /** SPKI PEM. */
  publicKeyPem: string;
}

export interface GeneratedKey extends StoredKeyMaterial {
  publicKey: KeyObject;
}

/**
 * One key backend. DATABASE keeps envelope-encrypted keys in our database; Vault and AWS KMS
 * (a later issue) keep the private key remote and implement the same five operations, so the
 * keys and organizations services never see which one they talk to.
 */
export interface KeyProviderDriver {
  readonly type: ProviderType;
  /** Creates a key pair inside the provider. Called outside any transaction. */
  generate(spec: KeySpec): Promise<GeneratedKey>;
  /** Signs certificates and CRLs with the key (low-S ECDSA, raw r‖s as WebCrypto does). */
  signer(stored: StoredKeyMaterial): Promise<CertificateSigner>;
  /**
   * Signs a message or a digest (`prehashed`), e.g. a Fabric proposal. ECDSA is low-S because
   * peers reject high-S signatures.
   */
  sign(
    stored: StoredKeyMaterial,
    data: Uint8Array,
    opts?: { prehashed?: boolean; encoding?: SignatureEncoding },
  ): Promise<Uint8Array>;
  /** The public key PEM as the provider knows it. */
  getPublicKey(stored: StoredKeyMaterial): Promise<string>;
  /**
   * The private key PEM, for writing a node's local MSP keystore. Only providers that hold the
   * key locally implement it; it must never reach an API response.
   */
  exportPrivateKeyPem?(stored: StoredKeyMaterial): Promise<string>;
  /** Forgets the key inside the provider (no-op for DATABASE: the row is the key). */
  delete(stored: StoredKeyMaterial): Promise<void>;
}
