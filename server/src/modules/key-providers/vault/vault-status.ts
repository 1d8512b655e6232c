import { existsSync, statSync } from "node:fs";
import type { ProcessState } from "../../../runtime/supervisor.js";
import type { VaultStatusResponse } from "../key-providers.schema.js";
import type { ProviderRowView } from "../provider.js";
import { openBaoLayout } from "./openbao-files.js";
import type { VaultPublicConfig } from "./vault-config.js";
import { vaultRequest, type VaultEndpoint } from "./vault-http.js";

const HEALTH_STATUS: Record<number, string> = {
  200: "active",
  429: "standby",
  472: "standby",
  473: "standby",
  501: "uninitialized",
  503: "sealed",
};

/**
 * GET .../vault/status: the server's /v1/sys/health and, for a managed OpenBao, the process this
 * console runs (the `container_*` fields of the upstream contract describe that process).
 */
export async function vaultStatus(p: {
  row: ProviderRowView;
  cfg: VaultPublicConfig;
  endpoint: VaultEndpoint;
  consoleDataDir: string;
  hasUnsealKeys: boolean;
  process: ProcessState | undefined;
  binary: string | undefined;
}): Promise<VaultStatusResponse> {
  const managed = p.cfg.mode === "managed";
  const running = p.process?.status === "RUNNING" || p.process?.status === "STARTING";
  let health: Record<string, unknown> = {};
  let code = 0;
  let error: string | undefined;
  if (!managed || running) {
    // standbyok etc. are left off so the status code tells which state the server is in.
    const res = await vaultRequest({ ...p.endpoint, timeoutMs: 3000 }, "GET", "/v1/sys/health").catch(
      (err: Error) => err,
    );
    if (res instanceof Error) error = res.message;
    else {
      code = res.status;
      health = res.body;
    }
  }
  const vaultStatus =
    code > 0 ? (HEALTH_STATUS[code] ?? `http-${code}`) : managed && !running ? "stopped" : "unreachable";
  const layout = managed ? openBaoLayout(p.consoleDataDir, p.row.id) : undefined;
  const dataExists = layout ? existsSync(layout.dataDir) : false;
  const proc = p.process;
  const containerStatus = !managed
    ? ""
    : !proc
      ? dataExists
        ? "stopped"
        : "not_created"
      : proc.status === "RUNNING"
        ? "running"
        : proc.status === "ERROR"
          ? "crashed"
          : proc.status.toLowerCase();
  const str = (v: unknown): string => (typeof v === "string" ? v : "");
  return {
    provider_id: p.row.id,
    provider_name: p.row.name,
    mode: managed ? "managed" : "external",
    address: p.cfg.address,
    port: p.cfg.port ? String(p.cfg.port) : portOf(p.cfg.address),
    data_directory: layout?.dataDir ?? "",
    data_exists: dataExists,
    has_unseal_keys: p.hasUnsealKeys,
    vault_reachable: code > 0,
    vault_initialized: health.initialized === true,
    sealed: code > 0 ? health.sealed === true : true,
    vault_status: vaultStatus,
    vault_status_code: code,
    vault_version: str(health.version),
    cluster_id: str(health.cluster_id),
    cluster_name: str(health.cluster_name),
    vault_health_details: health,
    ...(error ? { error } : {}),
    docker_available: false,
    container_exists: managed && proc !== undefined,
    container_running: managed && proc?.status === "RUNNING",
    container_status: containerStatus,
    container_id: proc?.pid ? String(proc.pid) : "",
    container_full_id: proc?.pid ? String(proc.pid) : "",
    container_name: managed ? `openbao-${p.row.id}` : "",
    container_image: managed ? (p.binary ?? "") : "",
    container_created: layout && dataExists ? statSync(layout.dir).birthtime.toISOString() : "",
    container_started_at: proc?.startedAt ?? "",
    container_finished_at: "",
    container_error: proc?.errorMessage ?? "",
    container_restart_count: proc?.restarts ?? 0,
    container_ports:
      managed && p.cfg.port ? { api: `127.0.0.1:${p.cfg.port}`, cluster: `127.0.0.1:${p.cfg.port + 1}` } : {},
    default_cert_ttl: p.cfg.defaultCertTTL ?? "",
    default_ca_cert_ttl: p.cfg.defaultCACertTTL ?? "",
    max_cert_ttl: p.cfg.maxCertTTL ?? "",
    max_ca_cert_ttl: p.cfg.maxCACertTTL ?? "",
  };
}

function portOf(address: string): string {
  try {
    const u = new URL(address);
    return u.port || (u.protocol === "https:" ? "443" : "80");
  } catch {
    return "";
  }
}
