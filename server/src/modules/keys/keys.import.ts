import type { KeyObject } from "node:crypto";
import { parseCertificate } from "../../crypto/certificate-decoder.js";
import { keySpecOf, publicKeyToPem, sha256Fingerprint, subjectKeyIdentifier } from "../../crypto/key-algorithms.js";
import { nowIso } from "../../db/db.js";
import { InputError } from "../../http/errors.js";
import type { KeyProvidersService } from "../key-providers/key-providers.service.js";
import type { StoredKeyMaterial } from "../key-providers/provider.js";
import type { KeysRepo } from "./keys.repo.js";

/** A CA certificate made elsewhere and its key pair (the caller checked that they match). */
export interface ImportKeyParams {
  name: string;
  certificatePem: string;
  publicKey: KeyObject;
  privateKey?: KeyObject;
  providerId: number | null;
  /** Created as "pending" until its owner's transaction activates it (as createKey's). */
  pending?: boolean;
}

/**
 * Stores an imported CA key: the private key encrypted by the provider when one is given, else only
 * the certificate's public key (such a key verifies but signs nothing). A provider that can't take
 * a foreign private key (Vault, AWS KMS) is a 400 naming providerId.
 */
export async function importCaKey(
  deps: { repo: Pick<KeysRepo, "insert">; providers: Pick<KeyProvidersService, "resolve"> },
  p: ImportKeyParams,
): Promise<{ id: number }> {
  const { row: provider, driver } = await deps.providers.resolve(p.providerId);
  if (p.privateKey && !driver.importPrivateKey)
    throw new InputError(`providerId: key provider "${provider.name}" can't store a private key made elsewhere`, {
      field: "providerId",
    });
  const stored: StoredKeyMaterial = p.privateKey
    ? await driver.importPrivateKey!(p.privateKey)
    : { providerKeyRef: null, privateKeyEncrypted: null, publicKeyPem: publicKeyToPem(p.publicKey) };
  const cert = parseCertificate(p.certificatePem);
  const spec = keySpecOf(p.publicKey);
  const ts = nowIso();
  return deps.repo.insert({
    name: p.name,
    description: "imported",
    algorithm: spec.algorithm,
    curve: spec.algorithm === "EC" ? spec.curve : null,
    key_size: spec.algorithm === "RSA" ? spec.keySize : null,
    provider_id: provider.id,
    provider_key_ref: null,
    public_key: stored.publicKeyPem,
    private_key_encrypted: stored.privateKeyEncrypted,
    certificate: p.certificatePem,
    is_ca: 1,
    signing_key_id: null,
    sha256_fingerprint: sha256Fingerprint(p.publicKey),
    sha1_fingerprint: subjectKeyIdentifier(p.publicKey),
    ethereum_address: null,
    status: p.pending ? "pending" : "active",
    expires_at: cert.notAfter.toISOString(),
    last_rotated_at: null,
    created_at: ts,
    updated_at: ts,
  });
}
