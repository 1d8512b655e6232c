import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { UpstreamError } from "../../../http/errors.js";

/** Where a Vault or OpenBao answers and how to authenticate. The token is never logged. */
export interface VaultEndpoint {
  /** http(s)://host:port, without a trailing slash. */
  address: string;
  /** PEM of the CA that signed the server's TLS certificate (else the system roots). */
  caCert?: string;
  namespace?: string;
  token?: string;
  /** Per request; Vault answers in milliseconds, a hung server must not hang an API call. */
  timeoutMs?: number;
}

export interface VaultResponse {
  status: number;
  /** Parsed JSON body; {} when empty or not JSON. */
  body: Record<string, unknown>;
}

/** The network failed (refused, timeout, TLS): the server was not reached at all. */
export class VaultUnreachableError extends UpstreamError {
  constructor(address: string, cause: string) {
    super(`Vault at ${address} is unreachable: ${cause}`);
  }
}

/**
 * One request to the Vault HTTP API. Node's global fetch can't take a private CA without undici,
 * so this goes through node:http(s) with the provider's CA.
 * @throws VaultUnreachableError when no HTTP answer came back.
 */
export function vaultRequest(
  ep: VaultEndpoint,
  method: "GET" | "PUT" | "POST" | "DELETE" | "LIST",
  path: string,
  body?: unknown,
): Promise<VaultResponse> {
  const url = new URL(`${ep.address}${path}`);
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const headers: Record<string, string> = { accept: "application/json" };
  if (ep.token) headers["x-vault-token"] = ep.token;
  if (ep.namespace) headers["x-vault-namespace"] = ep.namespace;
  if (payload) {
    headers["content-type"] = "application/json";
    headers["content-length"] = String(payload.length);
  }
  const timeout = ep.timeoutMs ?? 10_000;
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      { method, headers, timeout, ...(url.protocol === "https:" && ep.caCert ? { ca: ep.caCert } : {}) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          let parsed: unknown = {};
          const text = Buffer.concat(chunks).toString("utf8");
          try {
            parsed = text ? JSON.parse(text) : {};
          } catch {
            parsed = { text };
          }
          const obj = parsed && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : {};
          resolve({ status: res.statusCode ?? 0, body: obj as Record<string, unknown> });
        });
        res.on("error", (err) => reject(new VaultUnreachableError(ep.address, err.message)));
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer within ${timeout} ms`)));
    req.on("error", (err) => reject(new VaultUnreachableError(ep.address, err.message)));
    req.end(payload);
  });
}

/** Vault's own words for a failed request: `errors` joined, else the status. */
export function vaultErrorText(res: VaultResponse): string {
  const errors = res.body.errors;
  if (Array.isArray(errors) && errors.length > 0) return errors.map(String).join("; ");
  return `HTTP ${res.status}`;
}

/** `data` of a Vault answer (every secret-engine read wraps its payload in it). */
export function dataOf(res: VaultResponse): Record<string, unknown> {
  const d = res.body.data;
  return d && typeof d === "object" ? (d as Record<string, unknown>) : {};
}

/** The seal status (unauthenticated endpoint). */
export interface SealStatus {
  initialized: boolean;
  sealed: boolean;
  version: string;
  clusterName: string;
  clusterId: string;
  t: number;
  progress: number;
}

export async function sealStatus(ep: VaultEndpoint): Promise<SealStatus> {
  const res = await vaultRequest(ep, "GET", "/v1/sys/seal-status");
  if (res.status !== 200) throw new UpstreamError(`Vault at ${ep.address}: seal status failed: ${vaultErrorText(res)}`);
  const b = res.body;
  return {
    initialized: b.initialized === true,
    sealed: b.sealed === true,
    version: typeof b.version === "string" ? b.version : "",
    clusterName: typeof b.cluster_name === "string" ? b.cluster_name : "",
    clusterId: typeof b.cluster_id === "string" ? b.cluster_id : "",
    t: typeof b.t === "number" ? b.t : 0,
    progress: typeof b.progress === "number" ? b.progress : 0,
  };
}

/** The mounts of the server, keyed "name/" (needs read on sys/mounts); undefined when refused. */
export async function listMounts(
  ep: VaultEndpoint,
): Promise<Record<string, { type?: string; options?: Record<string, string> | null }> | undefined> {
  const res = await vaultRequest(ep, "GET", "/v1/sys/mounts");
  if (res.status === 403) return undefined;
  if (res.status !== 200)
    throw new UpstreamError(`Vault at ${ep.address}: listing mounts failed: ${vaultErrorText(res)}`);
  const d = dataOf(res);
  const mounts = Object.keys(d).length > 0 ? d : res.body;
  return mounts as Record<string, { type?: string; options?: Record<string, string> | null }>;
}
