import { EC_CURVES, KEY_ALGORITHMS, type EcCurve } from "../../crypto/key-algorithms.js";
import { PROVIDER_TYPES, type ProviderType } from "../key-providers/provider.js";
import type { KeyWithProviderRow } from "./keys.repo.js";
import type { KeyResponse } from "./keys.schema.js";

/**
 * The API's view of a key row: public material and where the private key lives, never the
 * (encrypted) private key itself. Every key answer of the API goes through here.
 */
export function toKeyResponse(row: KeyWithProviderRow): KeyResponse {
  const algorithm = (KEY_ALGORITHMS as readonly string[]).includes(row.algorithm)
    ? (row.algorithm as KeyResponse["algorithm"])
    : "EC";
  const curve = row.curve && (EC_CURVES as readonly string[]).includes(row.curve) ? (row.curve as EcCurve) : null;
  const type = (PROVIDER_TYPES as readonly string[]).includes(row.provider_type)
    ? (row.provider_type as ProviderType)
    : "DATABASE";
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    algorithm,
    curve,
    keySize: row.key_size,
    format: "PEM",
    publicKey: row.public_key,
    certificate: row.certificate,
    status: row.status,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastRotatedAt: row.last_rotated_at,
    sha256Fingerprint: row.sha256_fingerprint,
    sha1Fingerprint: row.sha1_fingerprint,
    ethereumAddress: row.ethereum_address,
    signingKeyID: row.signing_key_id,
    provider: { id: row.provider_id, name: row.provider_name, type },
    providerMetadata: {},
    kmsKeyId: row.provider_key_ref,
    // Node processes read their key from disk, so only keys the console can export qualify.
    canUseInNodes: type === "DATABASE" && algorithm === "EC" && (curve === "P-256" || curve === "secp256k1"),
    generatedLocally: type === "DATABASE",
    importedToProvider: false,
    isExportable: false,
    wasExported: false,
  };
}
