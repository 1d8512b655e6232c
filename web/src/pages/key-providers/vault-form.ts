import type { KeyProviderCreateVars } from "@/data/key-providers/key-provider-create-mutation";

/** External: link a Vault or OpenBao by token. Managed: the console runs OpenBao itself. */
export type VaultMode = "external" | "managed";

/** Where CA keys live: transit keys (certificates built by the console) or issuers of the PKI engine. */
export type VaultCaEngine = "transit" | "pki";

/** The Vault form's values, as strings as the inputs hold them. */
export interface VaultFormValues {
  name: string;
  isDefault: boolean;
  mode: VaultMode;
  address: string;
  token: string;
  caCert: string;
  namespace: string;
  transitMount: string;
  kvMount: string;
  /** Managed: the API port ("" lets the server pick a free one from 8200). */
  port: string;
  shares: string;
  threshold: string;
  caEngine: VaultCaEngine;
  pkiMount: string;
}

export const VAULT_FORM_DEFAULTS: VaultFormValues = {
  name: "",
  isDefault: false,
  mode: "external",
  address: "",
  token: "",
  caCert: "",
  namespace: "",
  transitMount: "transit",
  kvMount: "secret",
  port: "",
  shares: "3",
  threshold: "2",
  caEngine: "transit",
  pkiMount: "pki",
};

const V = "config.vault";

/** Where the server reports each field's errors (`config.vault.token: …`). */
export const VAULT_FORM_FIELDS = {
  name: "name",
  isDefault: "isDefault",
  mode: `${V}.operation`,
  address: `${V}.address`,
  token: `${V}.token`,
  caCert: `${V}.caCert`,
  namespace: `${V}.namespace`,
  transitMount: `${V}.transitMount`,
  kvMount: `${V}.kvMount`,
  port: `${V}.port`,
  shares: `${V}.shares`,
  threshold: `${V}.threshold`,
  caEngine: `${V}.caEngine`,
  pkiMount: `${V}.pkiMount`,
} as const satisfies Record<keyof VaultFormValues, string>;

const MOUNT_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const int = (s: string): number | undefined => (/^\d+$/.test(s.trim()) ? Number(s.trim()) : undefined);

/** The form's own checks, before anything is sent: field → message. The server checks again. */
export function validateVaultForm(v: VaultFormValues): Partial<Record<keyof VaultFormValues, string>> {
  const out: Partial<Record<keyof VaultFormValues, string>> = {};
  const name = v.name.trim();
  if (!name) out.name = "Name is required";
  else if (name.length > 100) out.name = "At most 100 characters";
  if (v.mode === "external") {
    const address = v.address.trim();
    if (!address) out.address = "Address is required";
    else if (!/^https?:\/\/[^\s/]+/.test(address)) out.address = "Give http(s)://host:port";
    if (!v.token.trim()) out.token = "A Vault token is required";
    const ca = v.caCert.trim();
    if (ca && !ca.includes("-----BEGIN CERTIFICATE-----")) out.caCert = "Paste a PEM certificate";
    for (const k of ["transitMount", "kvMount"] as const) {
      const m = v[k].trim().replace(/^\/+|\/+$/g, "");
      if (m && !MOUNT_RE.test(m)) out[k] = "Letters, digits, - and _ only";
    }
  } else {
    if (v.port.trim()) {
      const port = int(v.port);
      if (port === undefined || port < 1024 || port > 65534) out.port = "A port from 1024 to 65534";
    }
    const shares = int(v.shares);
    const threshold = int(v.threshold);
    if (shares === undefined || shares < 1 || shares > 100) out.shares = "From 1 to 100";
    if (threshold === undefined || threshold < 1) out.threshold = "At least 1";
    else if (shares !== undefined && threshold > shares) out.threshold = "At most the number of key shares";
  }
  if (v.caEngine === "pki") {
    const m = v.pkiMount.trim().replace(/^\/+|\/+$/g, "");
    if (m && !MOUNT_RE.test(m)) out.pkiMount = "Letters, digits, - and _ only";
  }
  return out;
}

/**
 * Maps the form to POST /key-providers: IMPORT with the address and token of an existing server,
 * or CREATE with the managed server's port, shares and threshold. Empty optional fields are left
 * out so the server's defaults apply.
 */
export function toVaultBody(v: VaultFormValues): KeyProviderCreateVars {
  const opt = (k: "caCert" | "namespace" | "transitMount" | "kvMount"): Record<string, string> =>
    v[k].trim() ? { [k]: v[k].trim() } : {};
  const port = int(v.port);
  // Transit is the server's default; PKI is sent with its mount (empty: the server's "pki").
  const pki =
    v.caEngine === "pki" ? { caEngine: "pki", ...(v.pkiMount.trim() ? { pkiMount: v.pkiMount.trim() } : {}) } : {};
  const vault =
    v.mode === "external"
      ? {
          operation: "IMPORT",
          address: v.address.trim().replace(/\/+$/, ""),
          token: v.token.trim(),
          ...opt("caCert"),
          ...opt("namespace"),
          ...opt("transitMount"),
          ...opt("kvMount"),
          ...pki,
        }
      : {
          operation: "CREATE",
          ...(port !== undefined ? { port } : {}),
          shares: int(v.shares) ?? 3,
          threshold: int(v.threshold) ?? 2,
          ...pki,
        };
  return {
    name: v.name.trim(),
    type: "VAULT",
    ...(v.isDefault ? { isDefault: 1 } : {}),
    config: { vault },
  };
}
