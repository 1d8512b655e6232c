import type { KeyProvider } from "@/api/client";

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The provider's stored settings: under `vault` / `awsKms`, or at the top level. */
export function settingsOf(p: KeyProvider): Record<string, unknown> {
  const c = p.config;
  if (p.type === "VAULT" && isRecord(c.vault)) return c.vault;
  if (p.type === "AWS_KMS" && isRecord(c.awsKms)) return c.awsKms;
  return c;
}

/** True for a managed Vault (the console runs OpenBao). */
export function isManagedVault(p: KeyProvider): boolean {
  const s = settingsOf(p);
  return p.type === "VAULT" && (s.mode === "managed" || s.operation === "CREATE");
}

const LABELS: Record<"VAULT" | "AWS_KMS", [string, string][]> = {
  VAULT: [
    ["address", "Address"],
    ["namespace", "Namespace"],
    ["transitMount", "Transit mount"],
    ["kvMount", "KV mount"],
    ["port", "Port"],
    ["shares", "Unseal key shares"],
    ["threshold", "Unseal threshold"],
    ["defaultCertTTL", "Default certificate TTL"],
    ["maxCertTTL", "Maximum certificate TTL"],
    ["defaultCACertTTL", "Default CA certificate TTL"],
    ["maxCACertTTL", "Maximum CA certificate TTL"],
  ],
  AWS_KMS: [
    ["awsRegion", "Region"],
    ["endpointUrl", "Endpoint URL"],
    ["awsAccessKeyId", "Access key ID"],
    ["assumeRoleArn", "Role to assume"],
    ["externalId", "External ID"],
    ["kmsKeyAliasPrefix", "Alias prefix"],
  ],
};

/** Fields that hold a secret; the API never returns them, and the screen would not show one anyway. */
const SECRET = /token|secret|password|unseal|privatekey/i;

/**
 * The settings a provider's page lists, label → text, in a fixed order; empty values are left out.
 * The Vault mode is listed first, and the CA certificate only as "provided".
 */
export function settingsRows(p: KeyProvider): { label: string; value: string }[] {
  if (p.type !== "VAULT" && p.type !== "AWS_KMS") return [];
  const s = settingsOf(p);
  const rows: { label: string; value: string }[] = [];
  if (p.type === "VAULT") {
    rows.push({ label: "Mode", value: isManagedVault(p) ? "Managed OpenBao" : "External" });
    const pki = s.caEngine === "pki";
    rows.push({ label: "Certificate authorities", value: pki ? "PKI engine (Vault issues)" : "Transit keys" });
    if (pki && typeof s.pkiMount === "string") rows.push({ label: "PKI mount", value: s.pkiMount });
  }
  for (const [key, label] of LABELS[p.type]) {
    const v = s[key];
    if (SECRET.test(key) || v === undefined || v === null || v === "") continue;
    if (typeof v === "string" || typeof v === "number") rows.push({ label, value: String(v) });
  }
  if (p.type === "VAULT" && typeof s.caCert === "string" && s.caCert) {
    rows.push({ label: "CA certificate", value: "Provided" });
  }
  return rows;
}
