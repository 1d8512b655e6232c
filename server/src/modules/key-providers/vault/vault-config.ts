import { X509Certificate } from "node:crypto";
import { InputError, UpstreamError } from "../../../http/errors.js";
import { checkPort } from "../../../runtime/ports.js";
import { listMounts, sealStatus, vaultErrorText, vaultRequest, type VaultEndpoint } from "./vault-http.js";

/** The public settings of a VAULT provider, as stored in `key_providers.config` (never a secret). */
export interface VaultPublicConfig {
  mode: "external" | "managed";
  operation: "IMPORT" | "CREATE";
  address: string;
  caCert?: string;
  namespace?: string;
  transitMount: string;
  kvMount: string;
  /** Managed only. */
  port?: number;
  shares?: number;
  threshold?: number;
  version?: string;
  /**
   * Where CA keys live: "transit" (default; certificates built here, signed by transit) or "pki"
   * (each CA is an issuer in the PKI mount, and Vault issues its certificates).
   */
  caEngine: "transit" | "pki";
  /** The PKI mount (default "pki"); mounted and tuned when caEngine is "pki" or on tune-pki. */
  pkiMount: string;
  defaultCertTTL?: string;
  defaultCACertTTL?: string;
  maxCertTTL?: string;
  maxCACertTTL?: string;
}

const F = "config.vault";
/** A new PKI mount's max lease TTL when maxCACertTTL is not given: 20 years, as upstream's example. */
export const DEFAULT_PKI_MAX_TTL = "175200h";
const MOUNT_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** Reads the stored config back (tolerating a row written by another version). */
export function parseVaultConfig(text: string): VaultPublicConfig {
  let v: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === "object") v = parsed as Record<string, unknown>;
  } catch {
    // an unreadable row acts as an empty external config; calls then fail naming the address
  }
  const s = (k: string): string | undefined => (typeof v[k] === "string" ? (v[k] as string) : undefined);
  const n = (k: string): number | undefined => (typeof v[k] === "number" ? (v[k] as number) : undefined);
  return {
    mode: v.mode === "managed" ? "managed" : "external",
    operation: v.mode === "managed" ? "CREATE" : "IMPORT",
    address: s("address") ?? "",
    caCert: s("caCert"),
    namespace: s("namespace"),
    transitMount: s("transitMount") ?? "transit",
    kvMount: s("kvMount") ?? "secret",
    port: n("port"),
    shares: n("shares"),
    threshold: n("threshold"),
    version: s("version"),
    caEngine: v.caEngine === "pki" ? "pki" : "transit",
    pkiMount: s("pkiMount") ?? "pki",
    defaultCertTTL: s("defaultCertTTL"),
    defaultCACertTTL: s("defaultCACertTTL"),
    maxCertTTL: s("maxCertTTL"),
    maxCACertTTL: s("maxCACertTTL"),
  };
}

function str(input: Record<string, unknown>, key: string): string | undefined {
  const v = input[key];
  if (v === undefined || v === null || v === "") return undefined;
  if (typeof v !== "string") throw new InputError(`${F}.${key}: must be a string`);
  return v.trim();
}

function mount(input: Record<string, unknown>, key: string, fallback: string): string {
  const v = (str(input, key) ?? fallback).replace(/^\/+|\/+$/g, "");
  if (!MOUNT_RE.test(v)) throw new InputError(`${F}.${key}: "${v}" is not a mount path (letters, digits, - and _)`);
  return v;
}

/** A Vault duration: Go's (8760h, 90m, 1h30m), with days (30d), or whole seconds. */
const DURATION_RE = /^(?:\d+|(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h|d))+)$/;

/** Checks a TTL field (Vault rejects others with a message naming nothing). */
export function ttl(input: Record<string, unknown>, key: string, field = F): string | undefined {
  const v = input[key];
  if (v === undefined || v === null || v === "") return undefined;
  if (typeof v !== "string" || !DURATION_RE.test(v.trim())) {
    throw new InputError(`${field}.${key}: "${String(v)}" is not a duration (e.g. 8760h, 30d)`);
  }
  return v.trim();
}

/** The CA engine, the PKI mount and its TTLs. */
function pkiSettings(
  input: Record<string, unknown>,
): Partial<VaultPublicConfig> & Pick<VaultPublicConfig, "caEngine" | "pkiMount"> {
  const engine = str(input, "caEngine") ?? "transit";
  if (engine !== "transit" && engine !== "pki") {
    throw new InputError(`${F}.caEngine: "${engine}" is neither transit nor pki`);
  }
  const out: Partial<VaultPublicConfig> & Pick<VaultPublicConfig, "caEngine" | "pkiMount"> = {
    caEngine: engine,
    pkiMount: mount(input, "pkiMount", "pki"),
  };
  for (const k of ["defaultCertTTL", "defaultCACertTTL", "maxCertTTL", "maxCACertTTL"] as const) {
    const v = ttl(input, k);
    if (v) out[k] = v;
  }
  return out;
}

/** A managed OpenBao: settings only; the create then starts it (the backend's afterCreate). */
export async function prepareManaged(
  input: Record<string, unknown>,
  reservedPorts: Iterable<number>,
): Promise<{ config: VaultPublicConfig; secrets: Record<string, string> }> {
  const shares = typeof input.shares === "number" && input.shares > 0 ? input.shares : 3;
  const threshold = typeof input.threshold === "number" && input.threshold > 0 ? input.threshold : Math.min(2, shares);
  if (threshold > shares) {
    throw new InputError(`${F}.threshold: ${threshold} is more than the ${shares} unseal key shares`);
  }
  let port = typeof input.port === "number" && input.port > 0 ? input.port : undefined;
  if (port !== undefined && (port < 1024 || port > 65534)) {
    throw new InputError(`${F}.port: use a port from 1024 to 65534 (the next one is the cluster port)`);
  }
  if (port === undefined) {
    // Two in a row: the API port and the cluster port after it.
    const reserved = new Set<number>();
    for (const p of reservedPorts) reserved.add(p).add(p + 1);
    for (let p = 8200; p < 8400 && port === undefined; p++) {
      if (reserved.has(p) || reserved.has(p + 1)) continue;
      const hosts = ["127.0.0.1"];
      if (!(await checkPort(p, { hosts })) && !(await checkPort(p + 1, { hosts }))) port = p;
    }
    if (port === undefined) throw new InputError(`${F}.port: no free port pair from 8200 to 8400; give one`);
  }
  return {
    config: {
      mode: "managed",
      operation: "CREATE",
      address: `https://127.0.0.1:${port}`,
      transitMount: mount(input, "transitMount", "transit"),
      kvMount: mount(input, "kvMount", "secret"),
      port,
      shares,
      threshold,
      version: "managed",
      ...pkiSettings(input),
    },
    secrets: {},
  };
}

/**
 * An existing Vault or OpenBao: checks the address answers, is unsealed, takes the token, and has
 * (or lets the token create) the transit and KV v2 mounts. The token goes to secrets only.
 */
export async function prepareExternal(
  input: Record<string, unknown>,
): Promise<{ config: VaultPublicConfig; secrets: Record<string, string> }> {
  const address = (str(input, "address") ?? "").replace(/\/+$/, "");
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new InputError(`${F}.address: "${address}" is not a URL; give http(s)://host:port`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new InputError(`${F}.address: "${address}" must start with http:// or https://`);
  }
  const token = str(input, "token");
  if (!token) throw new InputError(`${F}.token: a Vault token is required`);
  const caCert = str(input, "caCert");
  if (caCert) {
    try {
      new X509Certificate(caCert);
    } catch {
      throw new InputError(`${F}.caCert: not a PEM certificate`);
    }
  }
  const namespace = str(input, "namespace");
  const config: VaultPublicConfig = {
    mode: "external",
    operation: "IMPORT",
    address,
    ...(caCert ? { caCert } : {}),
    ...(namespace ? { namespace } : {}),
    transitMount: mount(input, "transitMount", "transit"),
    kvMount: mount(input, "kvMount", "secret"),
    ...pkiSettings(input),
  };
  const ep: VaultEndpoint = { address, caCert, namespace, token, timeoutMs: 5000 };
  await checkReady(ep);
  const self = await vaultRequest(ep, "GET", "/v1/auth/token/lookup-self");
  if (self.status === 403 || self.status === 401) {
    throw new InputError(`${F}.token: Vault at ${address} refused the token (${vaultErrorText(self)})`);
  }
  if (self.status !== 200) throw new UpstreamError(`Vault at ${address}: token lookup failed: ${vaultErrorText(self)}`);
  await ensureMounts(ep, config, "config.vault");
  return { config, secrets: { token } };
}

/** 502 unless the server answers, is initialised and unsealed. */
export async function checkReady(ep: VaultEndpoint): Promise<void> {
  const seal = await sealStatus(ep);
  if (!seal.initialized) throw new UpstreamError(`Vault at ${ep.address} is not initialised; initialise and unseal it`);
  if (seal.sealed) throw new UpstreamError(`Vault at ${ep.address} is sealed; unseal it`);
}

/**
 * Makes sure transit and KV v2 are mounted where the config says, mounting them when missing.
 * A token that may not read sys/mounts is trusted to have them (its key calls will say otherwise).
 */
export async function ensureMounts(
  ep: VaultEndpoint,
  config: Pick<VaultPublicConfig, "transitMount" | "kvMount" | "caEngine" | "pkiMount" | "maxCACertTTL">,
  field: string,
): Promise<void> {
  const mounts = await listMounts(ep);
  if (!mounts) return;
  const wanted: { key: string; path: string; type: string; body: Record<string, unknown> }[] = [
    { key: "transitMount", path: config.transitMount, type: "transit", body: { type: "transit" } },
    { key: "kvMount", path: config.kvMount, type: "kv", body: { type: "kv", options: { version: "2" } } },
  ];
  if (config.caEngine === "pki") {
    // The mount's max lease TTL caps every certificate it issues (the system default is 32 days).
    const maxTtl = config.maxCACertTTL ?? DEFAULT_PKI_MAX_TTL;
    wanted.push({
      key: "pkiMount",
      path: config.pkiMount,
      type: "pki",
      body: { type: "pki", config: { max_lease_ttl: maxTtl } },
    });
  }
  for (const w of wanted) {
    const have = mounts[`${w.path}/`];
    if (have) {
      if (have.type !== w.type) {
        throw new InputError(`${field}.${w.key}: "${w.path}" is a ${have.type ?? "?"} mount, not ${w.type}`);
      }
      if (w.type === "kv" && have.options?.version !== "2") {
        throw new InputError(`${field}.${w.key}: "${w.path}" is KV version 1; secp256k1 keys need KV version 2`);
      }
      continue;
    }
    const res = await vaultRequest(ep, "POST", `/v1/sys/mounts/${w.path}`, w.body);
    if (res.status === 403) {
      throw new InputError(`${field}.${w.key}: "${w.path}" is not mounted and the token may not mount it`);
    }
    if (res.status !== 200 && res.status !== 204) {
      throw new UpstreamError(`Vault at ${ep.address}: mounting ${w.type} at ${w.path} failed: ${vaultErrorText(res)}`);
    }
  }
}
