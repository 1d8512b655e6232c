import type { CreateKeyBody } from "@/api/client";

export const ALGORITHMS = ["EC", "ED25519", "RSA"] as const;
export const CURVES = ["P-256", "P-384", "secp256k1"] as const;
export const KEY_SIZES = ["2048", "4096"] as const;

/** The create-key dialog's values (strings, as the inputs hold them). */
export interface KeyFormValues {
  name: string;
  description: string;
  algorithm: (typeof ALGORITHMS)[number];
  curve: (typeof CURVES)[number];
  keySize: (typeof KEY_SIZES)[number];
  /** "" means the default provider. */
  providerId: string;
  withCertificate: boolean;
  commonName: string;
  organization: string;
  organizationalUnit: string;
  /** Validity in days. */
  validityDays: string;
}

export const KEY_FORM_DEFAULTS: KeyFormValues = {
  name: "",
  description: "",
  algorithm: "EC",
  curve: "P-256",
  keySize: "2048",
  providerId: "",
  withCertificate: false,
  commonName: "",
  organization: "",
  organizationalUnit: "",
  validityDays: "3650",
};

/** Where the server reports each form field's errors (request paths). */
export const KEY_FORM_FIELDS = {
  name: "name",
  description: "description",
  algorithm: "algorithm",
  curve: "curve",
  keySize: "keySize",
  providerId: "providerId",
  commonName: "certificate.commonName",
  organization: "certificate.organization",
  organizationalUnit: "certificate.organizationalUnit",
  validityDays: ["certificate.validFor", "certificate"],
} as const;

/** Comma-separated text → trimmed, non-empty items. */
export function splitList(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * Maps the dialog to POST /keys: the curve only for EC, the size only for RSA, and a self-signed
 * CA certificate (validity in hours, as a Go duration) only when asked for.
 */
export function toCreateKeyBody(v: KeyFormValues): CreateKeyBody {
  const body: CreateKeyBody = { name: v.name.trim(), algorithm: v.algorithm };
  if (v.description.trim()) body.description = v.description.trim();
  if (v.algorithm === "EC") body.curve = v.curve;
  if (v.algorithm === "RSA") body.keySize = Number(v.keySize);
  if (v.providerId) body.providerId = Number(v.providerId);
  if (v.withCertificate) {
    const o = splitList(v.organization);
    const ou = splitList(v.organizationalUnit);
    body.certificate = {
      commonName: v.commonName.trim(),
      ...(o.length ? { organization: o } : {}),
      ...(ou.length ? { organizationalUnit: ou } : {}),
      isCA: true,
      validFor: `${Math.round(Number(v.validityDays) * 24)}h`,
    };
    body.isCA = 1;
  }
  return body;
}

/** "EC P-256", "RSA 4096", "ED25519". */
export function algorithmLabel(k: { algorithm: string; curve?: string | null; keySize?: number | null }): string {
  if (k.algorithm === "EC" && k.curve) return `EC ${k.curve}`;
  if (k.algorithm === "RSA" && k.keySize) return `RSA ${k.keySize}`;
  return k.algorithm;
}

/** The key list's type filter: one choice sets algorithm and curve together. */
export const TYPE_FILTERS = [
  { value: "all", label: "All types" },
  { value: "EC:P-256", label: "EC P-256" },
  { value: "EC:P-384", label: "EC P-384" },
  { value: "EC:secp256k1", label: "EC secp256k1" },
  { value: "ED25519", label: "ED25519" },
  { value: "RSA", label: "RSA" },
] as const;

/** Splits a type filter value into the algorithm and curve query parameters. */
export function parseTypeFilter(value: string): {
  algorithm?: (typeof ALGORITHMS)[number];
  curve?: (typeof CURVES)[number];
} {
  if (value === "all") return {};
  const [alg, curve] = value.split(":");
  return {
    ...(ALGORITHMS.includes(alg as (typeof ALGORITHMS)[number])
      ? { algorithm: alg as (typeof ALGORITHMS)[number] }
      : {}),
    ...(CURVES.includes(curve as (typeof CURVES)[number]) ? { curve: curve as (typeof CURVES)[number] } : {}),
  };
}
