import { randomUUID, X509Certificate } from "node:crypto";
import type { SubjectAltNames, SubjectName } from "../../../crypto/certificates.js";
import { keySpecOf, loadPublicKey, publicKeyToPem, type KeySpec } from "../../../crypto/key-algorithms.js";
import { InputError, UpstreamError } from "../../../http/errors.js";
import type { TunePkiRequest, VaultOperationResponse } from "../key-providers.schema.js";
import type { GeneratedKey, ProviderBackendContext, ProviderCertificateAuthority } from "../provider.js";
import { DEFAULT_PKI_MAX_TTL, ensureMounts, parseVaultConfig, ttl } from "./vault-config.js";
import { dataOf, vaultErrorText, vaultRequest, type VaultResponse } from "./vault-http.js";
import type { VaultCall, VaultTarget } from "./vault-transit-driver.js";

/**
 * A CA key in Vault's PKI engine is an issuer (its key made and kept by Vault); the key row holds
 * `pki:<issuer id>:<key id>`. Certificates come from the issuer's sign-verbatim (leaves) or
 * sign-intermediate (CAs) with a CSR signed by the subject's own key, so Fabric's OUs and SANs are
 * the ones the console asked for.
 */
const PKI_PREFIX = "pki:";
export const isPkiRef = (ref: string): boolean => ref.startsWith(PKI_PREFIX);

function parseRef(ref: string): { issuer: string; key: string } {
  const [issuer = "", key = ""] = ref.slice(PKI_PREFIX.length).split(":");
  return { issuer: encodeURIComponent(issuer), key: encodeURIComponent(key) };
}

/** The PKI engine's key_type/key_bits for a spec; secp256k1 it has not. */
function pkiKeyType(spec: KeySpec): { key_type: string; key_bits: number } {
  if (spec.algorithm === "ED25519") return { key_type: "ed25519", key_bits: 0 };
  if (spec.algorithm === "RSA") return { key_type: "rsa", key_bits: spec.keySize };
  if (spec.curve === "secp256k1") {
    throw new InputError(
      "curve: Vault's PKI engine has no secp256k1 CA keys; use P-256, P-384, P-521, Ed25519 or RSA for a CA",
    );
  }
  return { key_type: "ec", key_bits: { "P-256": 256, "P-384": 384, "P-521": 521 }[spec.curve] };
}

/** Vault's serial text (colon-separated bytes of the integer) from our hex. */
export function vaultSerial(hex: string): string {
  let h = BigInt(`0x${hex.replace(/[^0-9a-f]/gi, "") || "0"}`).toString(16);
  if (h.length % 2) h = `0${h}`;
  return h.match(/../g)!.join(":");
}

const rfc3339 = (d: Date): string => `${d.toISOString().slice(0, 19)}Z`;

function certificateOf(res: VaultResponse, what: string): string {
  const pem = dataOf(res).certificate;
  if (typeof pem !== "string" || !pem.includes("BEGIN CERTIFICATE")) {
    throw new UpstreamError(`Vault answered no certificate for ${what}`);
  }
  return pem.trim() + "\n";
}

/** The PKI half of a Vault driver: CA keys as issuers, certificates and CRLs issued by Vault. */
export function createVaultPki(deps: { call: VaultCall }) {
  const { call } = deps;

  function authority(ref: string): ProviderCertificateAuthority {
    const { issuer } = parseRef(ref);
    return {
      async issue(req) {
        const path = req.isCA ? "sign-intermediate" : "sign-verbatim";
        const body: Record<string, unknown> = req.isCA
          ? { csr: req.csrPem, use_csr_values: true, exclude_cn_from_sans: true, not_after: rfc3339(req.notAfter) }
          : {
              csr: req.csrPem,
              not_after: rfc3339(req.notAfter),
              key_usage: req.rsa ? ["DigitalSignature", "KeyEncipherment"] : ["DigitalSignature"],
              ext_key_usage: req.extKeyUsage.map((u) => (u === "serverAuth" ? "ServerAuth" : "ClientAuth")),
            };
        const res = await call(
          `issuing a certificate (${path})`,
          "POST",
          (t) => `/v1/${t.pkiMount}/issuer/${issuer}/${path}`,
          body,
          [200, 400],
        );
        if (res.status === 400) {
          // Vault's own checks (e.g. a validity beyond the CA's): the caller's input, not an outage.
          throw new InputError(`validFor: Vault's PKI refused the certificate: ${vaultErrorText(res)}`);
        }
        return certificateOf(res, "the issued certificate");
      },
      async revoke(serialNumber) {
        const res = await call(
          `revoking certificate ${serialNumber}`,
          "POST",
          (t) => `/v1/${t.pkiMount}/revoke`,
          { serial_number: vaultSerial(serialNumber) },
          [200, 204, 400, 404],
        );
        if (res.status === 400 || res.status === 404) {
          throw new InputError(`serialNumber: Vault's PKI did not revoke ${serialNumber}: ${vaultErrorText(res)}`);
        }
      },
      async crl() {
        const res = await call("reading the CRL", "GET", (t) => `/v1/${t.pkiMount}/issuer/${issuer}/crl`);
        const crl = dataOf(res).crl;
        if (typeof crl !== "string" || !crl.includes("BEGIN X509 CRL"))
          throw new UpstreamError("Vault answered no CRL");
        return crl.trim() + "\n";
      },
    };
  }

  return {
    async generateCa(
      spec: KeySpec,
      cert: { subject: SubjectName; sans: SubjectAltNames; notAfter: Date },
    ): Promise<GeneratedKey & { certificatePem: string }> {
      const name = `cl-${randomUUID()}`;
      const s = cert.subject;
      const res = await call(
        "creating a CA issuer",
        "POST",
        (t) => `/v1/${t.pkiMount}/issuers/generate/root/internal`,
        {
          ...pkiKeyType(spec),
          common_name: s.commonName,
          organization: s.organization ?? [],
          ou: s.organizationalUnit ?? [],
          country: s.country ?? [],
          province: s.province ?? [],
          locality: s.locality ?? [],
          street_address: s.streetAddress ?? [],
          postal_code: s.postalCode ?? [],
          alt_names: (cert.sans.dnsNames ?? []).join(","),
          ip_sans: (cert.sans.ipAddresses ?? []).join(","),
          uri_sans: (cert.sans.uris ?? []).join(","),
          exclude_cn_from_sans: true,
          not_after: rfc3339(cert.notAfter),
          issuer_name: name,
          key_name: name,
        },
      );
      const data = dataOf(res);
      const certificatePem = certificateOf(res, "the CA");
      if (typeof data.issuer_id !== "string" || typeof data.key_id !== "string") {
        throw new UpstreamError("Vault answered no issuer or key id for the new CA");
      }
      const publicKey = loadPublicKey(new X509Certificate(certificatePem).publicKey);
      if (keySpecOf(publicKey).algorithm !== spec.algorithm)
        throw new UpstreamError("Vault made a CA of another key type");
      return {
        providerKeyRef: `${PKI_PREFIX}${data.issuer_id}:${data.key_id}`,
        privateKeyEncrypted: null,
        publicKeyPem: publicKeyToPem(publicKey),
        publicKey,
        certificatePem,
      };
    },
    certificateAuthority(stored: { providerKeyRef: string | null }): ProviderCertificateAuthority | undefined {
      return stored.providerKeyRef && isPkiRef(stored.providerKeyRef) ? authority(stored.providerKeyRef) : undefined;
    },
    /** Removes the issuer, then its key (Vault refuses to delete a key an issuer still uses). */
    async delete(ref: string): Promise<void> {
      const { issuer, key } = parseRef(ref);
      await call(
        `deleting issuer ${issuer}`,
        "DELETE",
        (t) => `/v1/${t.pkiMount}/issuer/${issuer}`,
        undefined,
        [200, 204, 404],
      );
      await call(`deleting key ${key}`, "DELETE", (t) => `/v1/${t.pkiMount}/key/${key}`, undefined, [200, 204, 404]);
    },
  };
}

/**
 * POST .../vault/tune-pki: mounts the PKI engine when missing, sets its default and max lease TTLs
 * (the max caps every certificate it issues) and keeps the TTLs in the provider's config.
 */
export async function tunePkiMount(
  ctx: ProviderBackendContext,
  target: VaultTarget,
  body: TunePkiRequest,
): Promise<VaultOperationResponse> {
  const input = body as Record<string, unknown>;
  const F = "body";
  const defaultCert = ttl(input, "defaultCertTtl", F) ?? ttl(input, "defaultLeaseTtl", F);
  const maxCa = ttl(input, "maxCaCertTtl", F) ?? ttl(input, "maxLeaseTtl", F);
  const defaultCa = ttl(input, "defaultCaCertTtl", F);
  const maxCert = ttl(input, "maxCertTtl", F);
  if (!defaultCert && !maxCa && !defaultCa && !maxCert) {
    throw new InputError("body: give at least one of defaultCertTtl, maxCertTtl, defaultCaCertTtl, maxCaCertTtl");
  }
  const row = await ctx.row(target.providerId);
  const cfg = parseVaultConfig(row.config);
  const ep = target.endpoint;
  await ensureMounts(
    ep,
    { ...cfg, caEngine: "pki", maxCACertTTL: maxCa ?? cfg.maxCACertTTL ?? DEFAULT_PKI_MAX_TTL },
    "config.vault",
  );
  const tune: Record<string, string> = {};
  if (defaultCert) tune.default_lease_ttl = defaultCert;
  if (maxCa ?? maxCert) tune.max_lease_ttl = (maxCa ?? maxCert) as string;
  if (Object.keys(tune).length > 0) {
    const res = await vaultRequest(ep, "POST", `/v1/sys/mounts/${target.pkiMount}/tune`, tune);
    if (res.status === 400) throw new InputError(`body: Vault refused the TTLs: ${vaultErrorText(res)}`);
    if (res.status !== 200 && res.status !== 204) {
      throw new UpstreamError(`Vault provider "${row.name}": tuning ${target.pkiMount} failed: ${vaultErrorText(res)}`);
    }
  }
  const stored = JSON.parse(row.config) as Record<string, unknown>;
  await ctx.saveConfig(target.providerId, {
    ...stored,
    ...(defaultCert ? { defaultCertTTL: defaultCert } : {}),
    ...(defaultCa ? { defaultCACertTTL: defaultCa } : {}),
    ...(maxCert ? { maxCertTTL: maxCert } : {}),
    ...(maxCa ? { maxCACertTTL: maxCa } : {}),
  });
  return { success: true, message: `PKI mount "${target.pkiMount}" of provider "${row.name}" tuned` };
}
