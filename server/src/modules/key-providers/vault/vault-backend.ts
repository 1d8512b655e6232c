import { InputError } from "../../../http/errors.js";
import type { VaultOperationResponse, VaultStatusResponse } from "../key-providers.schema.js";
import type { ProviderBackend, ProviderBackendContext } from "../provider.js";

/** The VAULT backend: external Vault/OpenBao by token, or a managed OpenBao run as a process. */
export interface VaultBackend extends ProviderBackend {
  /** POST /key-providers/{id}/vault/start (409 when already running, 400 for an external Vault). */
  start(providerId: number): Promise<VaultOperationResponse>;
  /** POST /key-providers/{id}/vault/stop (409 when not running). */
  stop(providerId: number): Promise<VaultOperationResponse>;
  /** GET /key-providers/{id}/vault/status. */
  status(providerId: number): Promise<VaultStatusResponse>;
}

export function createVaultBackend(_ctx: ProviderBackendContext): VaultBackend {
  const missing = (): never => {
    throw new InputError("type: VAULT providers are not built yet");
  };
  return {
    prepare: async () => missing(),
    driver: () => missing(),
    start: async () => missing(),
    stop: async () => missing(),
    status: async () => missing(),
  };
}
