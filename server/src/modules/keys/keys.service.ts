import type { KeyObject } from "node:crypto";
import type { Transaction } from "kysely";
import { parseCertificate } from "../../crypto/certificate-decoder.js";
import {
  createCsr,
  createSelfSignedCertificate,
  issueCertificate,
  parseDuration,
  type ExtKeyUsageName,
  type IssuedCertificate,
  type SubjectAltNames,
  type SubjectName,
} from "../../crypto/certificates.js";
import {
  ethereumAddress,
  keySpecOf,
  loadPublicKey,
  parseKeySpec,
  sha256Fingerprint,
  subjectKeyIdentifier,
  type KeySpec,
  type SignatureEncoding,
} from "../../crypto/key-algorithms.js";
import type { CertificateSigner } from "../../crypto/signer.js";
import { nowIso } from "../../db/db.js";
import type { Database } from "../../db/types.js";
import { ConflictError, InputError, NotFoundError } from "../../http/errors.js";
import type { KeyProvidersService } from "../key-providers/key-providers.service.js";
import type { KeyProviderRow } from "../key-providers/key-providers.repo.js";
import {
  type GeneratedKey,
  type KeyProviderDriver,
  type ProviderCertificateAuthority,
  type StoredKeyMaterial,
} from "../key-providers/provider.js";
import { withNamedInput } from "./crypto-errors.js";
import { importCaKey, type ImportKeyParams } from "./keys.import.js";
import { toKeyResponse } from "./keys.mapping.js";
import type { CertificateRequest, CreateKeyBody, KeyResponse, PagedKeysResponse } from "./keys.schema.js";
import type { KeyFilter, KeyRow, KeysRepo, KeyWithProviderRow } from "./keys.repo.js";

const DEFAULT_VALIDITY_MS = 365 * 86_400_000;

/** A key provider looked up once for several keys (an organization's five): its row and driver. */
export interface ProviderChoice {
  row: KeyProviderRow;
  driver: KeyProviderDriver;
}

/** Certificate to attach when creating or re-certifying a key. */
export interface CertificateSpec {
  subject: SubjectName;
  sans?: SubjectAltNames;
  validForMs?: number;
  isCA?: boolean;
  extKeyUsage?: ExtKeyUsageName[];
  /** Issuing CA key; self-signed when absent. */
  signingKeyId?: number | null;
  /**
   * The row of `signingKeyId` when the caller has just read or made it (an organization's CA while it
   * makes the organization's identities), so it isn't read again; ignored when the ids differ.
   */
  issuerRow?: KeyWithProviderRow;
  /** The provider of `issuerRow` when the caller has looked it up; ignored for another provider. */
  issuerProvider?: ProviderChoice;
}

export interface CreateKeyParams {
  name: string;
  description?: string | null;
  spec: KeySpec;
  providerId?: number | null;
  certificate?: CertificateSpec;
  /**
   * Created as "pending": part of a larger creation (an organization) that activates it in its own
   * transaction. A pending key left by a crash is removed at the next boot.
   */
  pending?: boolean;
  /**
   * The private key must be written to disk (a node's MSP keystore and TLS key, an admin identity
   * the peer CLI uses): when the provider can't export keys (Vault, AWS KMS), the key goes to the
   * built-in DATABASE provider instead, while the certificate is still issued by the CA key wherever
   * that lives.
   */
  exportable?: boolean;
  /**
   * The provider, as {@link KeysService.provider} chose it for `providerId` and `exportable`, when the
   * caller creates several keys at once; else it is looked up here.
   */
  provider?: ProviderChoice;
}

/** Something that may hold on to a key (an organization, a node). Returns who, or null. */
export type KeyUsageChecker = (keyId: number) => Promise<string | null>;

function material(row: KeyRow): StoredKeyMaterial {
  return {
    providerKeyRef: row.provider_key_ref,
    privateKeyEncrypted: row.private_key_encrypted,
    publicKeyPem: row.public_key,
  };
}

/** Maps the API's certificate request to the library's certificate spec. */
export function certificateSpecFrom(
  req: CertificateRequest,
  extra: { isCA?: boolean; signingKeyId?: number | null } = {},
): CertificateSpec {
  return {
    subject: {
      commonName: req.commonName,
      organization: req.organization,
      organizationalUnit: req.organizationalUnit,
      country: req.country,
      province: req.province,
      locality: req.locality,
      streetAddress: req.streetAddress,
      postalCode: req.postalCode,
    },
    sans: { dnsNames: req.dnsNames, emailAddresses: req.emailAddresses },
    validForMs: req.validFor ? parseDurationNamed(req.validFor, "certificate.validFor") : undefined,
    isCA: extra.isCA ?? req.isCA ?? false,
    signingKeyId: extra.signingKeyId ?? null,
  };
}

function parseDurationNamed(value: string, field: string): number {
  try {
    return parseDuration(value, field);
  } catch (err) {
    throw new InputError(`${field}: ${(err as Error).message}`, { field });
  }
}

/** An IssuedCertificate read back from a certificate its provider made. */
function issuedFromPem(pem: string, publicKey: KeyObject): IssuedCertificate {
  const parsed = parseCertificate(pem);
  return {
    pem,
    serialNumber: parsed.serialNumber,
    notBefore: parsed.notBefore,
    notAfter: parsed.notAfter,
    subjectKeyId: parsed.subjectKeyId ?? subjectKeyIdentifier(publicKey),
  };
}

/**
 * Keys: generation through a provider, certificates (self-signed or CA-issued), fingerprints,
 * and deletion guarded by whoever still uses the key. Other modules use the internal methods
 * (createKey, signerFor, recertify, sign); the API methods return public material only.
 */
export function createKeysService(deps: {
  repo: KeysRepo;
  providers: Pick<KeyProvidersService, "resolve" | "resolveExportable" | "driverFor">;
  clock?: () => Date;
}) {
  const { repo, providers } = deps;
  const now = deps.clock ?? (() => new Date());
  const usageCheckers: KeyUsageChecker[] = [];

  async function mustGet(id: number, trx?: Transaction<Database>): Promise<KeyWithProviderRow> {
    const row = await repo.byId(id, trx);
    if (!row) throw new NotFoundError(`key ${id} not found`);
    return row;
  }

  async function signerFor(keyId: number): Promise<CertificateSigner> {
    const row = await mustGet(keyId);
    const { driver } = await providers.driverFor(row.provider_id);
    return driver.signer(material(row));
  }

  /** The provider-run CA (Vault PKI issuer) behind a CA key, if its provider issues its certificates. */
  async function providerCaOf(row: KeyWithProviderRow): Promise<ProviderCertificateAuthority | undefined> {
    const { driver } = await providers.driverFor(row.provider_id);
    return driver.certificateAuthority?.(material(row));
  }

  /** Issues (or self-signs) a certificate for `publicKey` as the spec says. */
  async function certify(
    publicKey: KeyObject,
    selfSigner: () => Promise<CertificateSigner>,
    cert: CertificateSpec,
  ): Promise<IssuedCertificate> {
    const at = now();
    const validity = { notAfter: new Date(at.getTime() + (cert.validForMs ?? DEFAULT_VALIDITY_MS)) };
    if (cert.signingKeyId) {
      const issuerRow = cert.issuerRow?.id === cert.signingKeyId ? cert.issuerRow : await repo.byId(cert.signingKeyId);
      if (!issuerRow) throw new InputError(`caKeyId: key ${cert.signingKeyId} not found`, { field: "caKeyId" });
      if (!issuerRow.certificate || issuerRow.is_ca !== 1) {
        throw new InputError(`caKeyId: key ${cert.signingKeyId} ("${issuerRow.name}") is not a CA`, {
          field: "caKeyId",
        });
      }
      // One provider lookup for both questions: does the provider issue, and else who signs.
      const { driver: issuerDriver } =
        cert.issuerProvider?.row.id === issuerRow.provider_id
          ? cert.issuerProvider
          : await providers.driverFor(issuerRow.provider_id);
      const providerCa = issuerDriver.certificateAuthority?.(material(issuerRow));
      if (providerCa) {
        // The provider issues: it gets a request signed by the subject's own key, never the key.
        const subjectSigner = await selfSigner();
        return withNamedInput(
          async () => {
            const csrPem = await createCsr({ signer: subjectSigner, subject: cert.subject, sans: cert.sans ?? {} });
            const pem = await providerCa.issue({
              csrPem,
              isCA: cert.isCA ?? false,
              extKeyUsage: cert.extKeyUsage ?? [],
              rsa: keySpecOf(publicKey).algorithm === "RSA",
              notAfter: validity.notAfter,
            });
            return issuedFromPem(pem, publicKey);
          },
          { issuer: "caKeyId" },
        );
      }
      const signer = await issuerDriver.signer(material(issuerRow));
      return withNamedInput(
        () =>
          issueCertificate({
            issuer: { certificatePem: issuerRow.certificate!, signer },
            publicKey,
            subject: cert.subject,
            sans: cert.sans ?? {},
            extKeyUsage: cert.extKeyUsage ?? [],
            isCA: cert.isCA ?? false,
            validity,
            now: at,
          }),
        { issuer: "caKeyId" },
      );
    }
    const signer = await selfSigner();
    return withNamedInput(() =>
      createSelfSignedCertificate({
        signer,
        subject: cert.subject,
        sans: cert.sans ?? {},
        isCA: cert.isCA ?? false,
        validity,
        now: at,
      }),
    );
  }

  async function createKey(params: CreateKeyParams): Promise<KeyWithProviderRow> {
    const { row: provider, driver } = params.provider ?? (await chooseProvider(params.providerId, params.exportable));
    let generated: GeneratedKey;
    let cert: IssuedCertificate | undefined;
    const wanted = params.certificate;
    if (wanted?.isCA && !wanted.signingKeyId && driver.generateCa) {
      // A provider-run CA (Vault PKI): the provider makes the key and its self-signed certificate.
      const notAfter = new Date(now().getTime() + (wanted.validForMs ?? DEFAULT_VALIDITY_MS));
      const made = await driver.generateCa(params.spec, { subject: wanted.subject, sans: wanted.sans ?? {}, notAfter });
      generated = made;
      cert = issuedFromPem(made.certificatePem, made.publicKey);
    } else {
      generated = await driver.generate(params.spec);
      const stored: StoredKeyMaterial = generated;
      cert = wanted
        ? await orForget(driver, stored, () => certify(generated.publicKey, () => driver.signer(stored), wanted))
        : undefined;
    }
    const ts = nowIso();
    const spec = params.spec;
    const inserted = await orForget(driver, generated, () =>
      repo.insert({
        name: params.name,
        description: params.description ?? null,
        algorithm: spec.algorithm,
        curve: spec.algorithm === "EC" ? spec.curve : null,
        key_size: spec.algorithm === "RSA" ? spec.keySize : null,
        provider_id: provider.id,
        provider_key_ref: generated.providerKeyRef,
        public_key: generated.publicKeyPem,
        private_key_encrypted: generated.privateKeyEncrypted,
        certificate: cert?.pem ?? null,
        is_ca: cert && params.certificate?.isCA ? 1 : 0,
        signing_key_id: params.certificate?.signingKeyId ?? null,
        sha256_fingerprint: sha256Fingerprint(generated.publicKey),
        sha1_fingerprint: subjectKeyIdentifier(generated.publicKey),
        ethereum_address:
          spec.algorithm === "EC" && spec.curve === "secp256k1" ? ethereumAddress(generated.publicKey) : null,
        status: params.pending ? "pending" : "active",
        expires_at: cert ? cert.notAfter.toISOString() : null,
        last_rotated_at: null,
        created_at: ts,
        updated_at: ts,
      }),
    );
    // The row as mustGet would read it back (keys.* and its provider's name and type), without the read.
    return { ...inserted, provider_name: provider.name, provider_type: provider.type };
  }

  /** The provider a new key goes to: `providerId` or the default; for an exportable key, one that exports. */
  async function chooseProvider(providerId?: number | null, exportable?: boolean): Promise<ProviderChoice> {
    return exportable ? providers.resolveExportable(providerId) : providers.resolve(providerId);
  }

  /**
   * Runs the step after a key was made (its certificate, its row); when the step fails, the key is
   * deleted in its provider again: nothing refers to it yet, and a remote provider must not keep it.
   */
  async function orForget<T>(
    driver: { delete(stored: StoredKeyMaterial): Promise<void> },
    stored: StoredKeyMaterial,
    step: () => Promise<T>,
  ): Promise<T> {
    try {
      return await step();
    } catch (err) {
      await driver.delete(stored).catch(() => undefined);
      throw err;
    }
  }

  /** 409 naming the first module that still uses the key; `except` is the caller's own check. */
  async function assertUnused(keyId: number, except?: KeyUsageChecker): Promise<void> {
    for (const check of usageCheckers) {
      if (check === except) continue;
      const user = await check(keyId);
      if (user) throw new ConflictError(`id: key ${keyId} is used by ${user}; remove that first`, { usedBy: user });
    }
  }

  return {
    /** Lets another module (organizations, nodes) block deletion of keys it uses. */
    addUsageChecker(check: KeyUsageChecker): void {
      usageCheckers.push(check);
    },

    async list(filter: KeyFilter, page: number, pageSize: number): Promise<PagedKeysResponse> {
      const { rows, total } = await repo.page(filter, pageSize, (page - 1) * pageSize);
      return { items: rows.map(toKeyResponse), page, pageSize, totalItems: total };
    },

    /** GET /keys/all: every key, unpaged, in id order. */
    async all(): Promise<KeyResponse[]> {
      return (await repo.all()).map(toKeyResponse);
    },

    async get(id: number): Promise<KeyResponse> {
      return toKeyResponse(await mustGet(id));
    },

    /** POST /keys. */
    async create(body: CreateKeyBody): Promise<KeyResponse> {
      const spec = await withNamedInput(async () => parseKeySpec(body));
      const isCA = body.isCA === 1 || body.certificate?.isCA === true;
      const certificate = body.certificate ? certificateSpecFrom(body.certificate, { isCA }) : undefined;
      const row = await createKey({
        name: body.name,
        description: body.description ?? null,
        spec,
        providerId: body.providerId ?? null,
        certificate,
      });
      return toKeyResponse(row);
    },

    /** POST /keys/{id}/sign: issues a new certificate for an existing key, signed by a CA key. */
    async signWithCa(keyId: number, caKeyId: number, req: Omit<CertificateRequest, "isCA">): Promise<KeyResponse> {
      await this.recertify(keyId, certificateSpecFrom(req, { signingKeyId: caKeyId }));
      return toKeyResponse(await mustGet(keyId));
    },

    async remove(id: number): Promise<KeyWithProviderRow> {
      const row = await mustGet(id);
      await assertUnused(id);
      const { driver } = await providers.driverFor(row.provider_id);
      await repo.delete([id]);
      await driver.delete(material(row));
      return row;
    },

    // ---- internal API for other modules ----

    /**
     * Deletes a key that the caller links to (e.g. an identity an organization issued): every
     * other module's usage check runs first (`owner` is the caller's own, skipped), and `unlink`
     * drops the caller's link in the transaction that deletes the key, so a refusal or a crash
     * leaves both as they were.
     */
    async removeLinked(
      id: number,
      owner: KeyUsageChecker,
      unlink: (trx: Transaction<Database>) => Promise<void>,
    ): Promise<KeyWithProviderRow> {
      const row = await mustGet(id);
      await assertUnused(id, owner);
      const { driver } = await providers.driverFor(row.provider_id);
      await repo.transaction(async (trx) => {
        await unlink(trx);
        await repo.delete([id], trx);
      });
      await driver.delete(material(row));
      return row;
    },

    createKey,
    /** Looks up once the provider for several keys made together (pass it to createKey as `provider`). */
    provider: chooseProvider,
    row: mustGet,
    rows: (ids: number[], trx?: Transaction<Database>) => repo.byIds(ids, trx),
    signerFor,
    /** The provider-run CA behind a CA key (Vault PKI), which issues its certificates and CRLs itself. */
    providerCa: providerCaOf,

    /** Replaces a key's certificate (renewal); keeps the key pair. */
    async recertify(keyId: number, cert: CertificateSpec): Promise<KeyWithProviderRow> {
      const row = await mustGet(keyId);
      const publicKey = loadPublicKey(row.public_key);
      const issued = await certify(publicKey, () => signerFor(keyId), cert);
      const ts = nowIso();
      await repo.update(keyId, {
        certificate: issued.pem,
        is_ca: cert.isCA ? 1 : 0,
        signing_key_id: cert.signingKeyId ?? null,
        expires_at: issued.notAfter.toISOString(),
        last_rotated_at: ts,
        updated_at: ts,
      });
      return mustGet(keyId);
    },

    /** Signs a message or digest with the key, whatever its provider (low-S ECDSA). */
    async sign(
      keyId: number,
      data: Uint8Array,
      opts: { prehashed?: boolean; encoding?: SignatureEncoding } = {},
    ): Promise<Uint8Array> {
      const row = await mustGet(keyId);
      const { driver } = await providers.driverFor(row.provider_id);
      return driver.sign(material(row), data, opts);
    },

    /** The private key PEM for a node's keystore. Never put it in a response, log or audit record. */
    async exportPrivateKeyPem(keyId: number): Promise<string> {
      const row = await mustGet(keyId);
      const { driver } = await providers.driverFor(row.provider_id);
      if (!driver.exportPrivateKeyPem) {
        throw new InputError(
          `keyId: key ${keyId} lives in key provider "${row.provider_name}" (${row.provider_type}), which never exports ` +
            "private keys; nodes read their keys from disk, so use a key of the database provider",
          { field: "keyId" },
        );
      }
      return driver.exportPrivateKeyPem(material(row));
    },

    /** Stores a CA certificate made elsewhere with its key pair (see importCaKey). */
    async importKey(p: ImportKeyParams): Promise<KeyWithProviderRow> {
      return mustGet((await importCaKey({ repo, providers }, p)).id);
    },

    /** Marks pending keys active, in the transaction that gives them their owner. */
    async activate(ids: number[], trx?: Transaction<Database>): Promise<void> {
      await repo.activate(ids, trx);
    },

    /**
     * Deletes keys without usage checks; the caller owns them (e.g. an organization being deleted) and
     * its transaction. Answers the rows for forgetInProviders.
     */
    async removeOwned(ids: number[], trx?: Transaction<Database>): Promise<KeyWithProviderRow[]> {
      const rows = await repo.byIds(ids, trx);
      await repo.delete(ids, trx);
      return rows;
    },

    /**
     * After removeOwned's transaction committed: deletes the keys inside remote providers (transit
     * keys, PKI issuers, KMS keys). The rows are gone already, so failures are answered, not thrown.
     */
    async forgetInProviders(rows: KeyWithProviderRow[]): Promise<string[]> {
      const failures: string[] = [];
      for (const row of rows) {
        if (!row.provider_key_ref) continue;
        try {
          const { driver } = await providers.driverFor(row.provider_id);
          await driver.delete(material(row));
        } catch (err) {
          failures.push(`key ${row.id} (${row.provider_key_ref}): ${(err as Error).message}`);
        }
      }
      return failures;
    },

    specOf(row: KeyRow): KeySpec {
      return keySpecOf(loadPublicKey(row.public_key));
    },
  };
}

export type KeysService = ReturnType<typeof createKeysService>;
