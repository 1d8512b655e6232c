import type { KeyObject } from "node:crypto";
import type { KeySpec, SignatureEncoding } from "../../crypto/key-algorithms.js";
import type { ExtKeyUsageName, SubjectAltNames, SubjectName } from "../../crypto/certificates.js";
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

/** What a CA run by its provider (a Vault PKI issuer) is asked to sign. */
export interface ProviderIssueRequest {
  /** PKCS#10 request of the subject's key: subject and SANs are taken from it as they are. */
  csrPem: string;
  /** An intermediate CA certificate instead of a leaf. */
  isCA: boolean;
  extKeyUsage: ExtKeyUsageName[];
  /** RSA subject keys also get keyEncipherment, as certificates issued here do. */
  rsa: boolean;
  notAfter: Date;
}

/**
 * A CA key whose certificates its provider issues (a Vault PKI issuer): the console builds no
 * to-be-signed bytes for it and it signs nothing else.
 */
export interface ProviderCertificateAuthority {
  /** The issued certificate's PEM. */
  issue(req: ProviderIssueRequest): Promise<string>;
  /** Revokes a certificate it issued (hex serial); 400 naming serialNumber when it issued none such. */
  revoke(serialNumber: string): Promise<void>;
  /** The CA's current CRL (PEM), as the provider keeps it. */
  crl(): Promise<string>;
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
  /**
   * Stores a private key made elsewhere (an imported organization's CA). Only providers that hold
   * keys locally implement it; the PEM is encrypted before it is stored and never logged.
   */
  importPrivateKey?(privateKey: KeyObject): Promise<GeneratedKey>;
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
  /**
   * Only drivers whose CA keys are provider-run CAs (Vault with caEngine "pki"): creates a CA key
   * together with its self-signed certificate, both made by the provider.
   */
  generateCa?(
    spec: KeySpec,
    cert: { subject: SubjectName; sans: SubjectAltNames; notAfter: Date },
  ): Promise<GeneratedKey & { certificatePem: string }>;
  /** The provider-run CA of a stored key, or undefined when the console signs with the key itself. */
  certificateAuthority?(stored: StoredKeyMaterial): ProviderCertificateAuthority | undefined;
  /** Forgets the key inside the provider (no-op for DATABASE: the row is the key). */
  delete(stored: StoredKeyMaterial): Promise<void>;
}

/** What the key-providers service gives a remote backend (Vault, AWS KMS). */
export interface ProviderBackendContext {
  dataDir: string;
  masterKey: () => Buffer;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
  /** The provider's decrypted credentials ({} when none were stored). */
  secrets(providerId: number): Promise<Record<string, string>>;
  /** Replaces the provider's credentials (encrypted with the master key, bound to the id). */
  saveSecrets(providerId: number, secrets: Record<string, string>): Promise<void>;
  /** Replaces the provider's public config (never put a secret in it). */
  saveConfig(providerId: number, config: Record<string, unknown>): Promise<void>;
  /** Records whether a managed server should run ("running" | "stopped"). */
  saveState(providerId: number, state: string): Promise<void>;
  /** The provider's current row (404 when missing). */
  row(providerId: number): Promise<ProviderRowView>;
  /** How many keys the provider holds. */
  countKeys(providerId: number): Promise<number>;
}

/** The columns a backend reads from its provider row. */
export interface ProviderRowView {
  id: number;
  name: string;
  type: string;
  /** JSON text of the public config. */
  config: string;
  state: string;
}

/**
 * One remote provider type. The service stores the row; the backend checks settings, builds the
 * driver and runs anything the type needs (a managed Vault server).
 */
export interface ProviderBackend {
  /**
   * Checks a create request's settings (`config.vault` or `config.awsKms`) and splits them into
   * the public config to store and the credentials to encrypt. Reaches the service when it can:
   * bad credentials are a 400 naming the field, an unreachable endpoint a 502.
   */
  prepare(input: { name: string; config: Record<string, unknown> | undefined }): Promise<{
    config: Record<string, unknown>;
    secrets: Record<string, string>;
  }>;
  /** The driver of a stored provider; called once per provider per process. */
  driver(row: ProviderRowView): KeyProviderDriver;
  /**
   * After the row is stored, before the create answers: a managed server starts (initialised and
   * unsealed), as upstream's clients expect. When it throws, the service deletes the row again.
   */
  afterCreate?(row: ProviderRowView): Promise<void>;
  /** After the row is deleted: stop a managed server, forget cached clients. */
  onDelete?(row: ProviderRowView): Promise<void>;
  /** At boot, with every provider of this type: start managed servers whose state is "running". */
  onReady?(rows: ProviderRowView[]): Promise<void>;
  /** At shutdown. */
  onClose?(): Promise<void>;
}
