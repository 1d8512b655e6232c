import { InputError } from "../../../http/errors.js";
import type { TunePkiRequest, VaultOperationResponse, VaultStatusResponse } from "../key-providers.schema.js";
import type { ProviderBackend, ProviderBackendContext } from "../provider.js";
import { createManagedOpenBao } from "./openbao-managed.js";
import { parseVaultConfig, prepareExternal, prepareManaged } from "./vault-config.js";
import { createVaultDriver, type VaultTarget } from "./vault-transit-driver.js";
import { tunePkiMount } from "./vault-pki.js";
import { vaultStatus } from "./vault-status.js";

/** The VAULT backend: external Vault/OpenBao by token, or a managed OpenBao run as a process. */
export interface VaultBackend extends ProviderBackend {
  /** POST /key-providers/{id}/vault/start (409 when already running, 400 for an external Vault). */
  start(providerId: number): Promise<VaultOperationResponse>;
  /** POST /key-providers/{id}/vault/stop (409 when not running). */
  stop(providerId: number): Promise<VaultOperationResponse>;
  /** POST /key-providers/{id}/vault/unseal: a managed server, with its stored keys (400 for an external Vault). */
  unseal(providerId: number): Promise<VaultOperationResponse>;
  /** POST /key-providers/{id}/vault/tune-pki: the PKI mount's TTLs, stored in the config too. */
  tunePki(providerId: number, body: TunePkiRequest): Promise<VaultOperationResponse>;
  /** GET /key-providers/{id}/vault/status. */
  status(providerId: number): Promise<VaultStatusResponse>;
}

/**
 * Vault and OpenBao providers. Keys live in the transit engine (secp256k1 in KV v2, sealed with the
 * master key); the token, or a managed server's root token and unseal keys, live in the provider's
 * encrypted secrets and never in its config, responses or logs.
 */
export function createVaultBackend(ctx: ProviderBackendContext): VaultBackend {
  const managed = createManagedOpenBao(ctx);
  /** Ports of managed providers this process knows, so two new ones don't get the same port. */
  const managedPorts = new Set<number>();
  /** Boot-time starts still running (awaited at shutdown so no process outlives the console). */
  const bootStarts = new Set<Promise<unknown>>();

  async function targetOf(providerId: number): Promise<VaultTarget> {
    const row = await ctx.row(providerId);
    const cfg = parseVaultConfig(row.config);
    const secrets = await ctx.secrets(providerId);
    const token = cfg.mode === "managed" ? secrets.rootToken : secrets.token;
    return {
      providerId,
      providerName: row.name,
      endpoint: { address: cfg.address, caCert: cfg.caCert, namespace: cfg.namespace, token, timeoutMs: 15_000 },
      transitMount: cfg.transitMount,
      kvMount: cfg.kvMount,
      pkiMount: cfg.pkiMount,
    };
  }

  async function managedRow(providerId: number) {
    const row = await ctx.row(providerId);
    if (parseVaultConfig(row.config).mode !== "managed") {
      throw new InputError(
        `id: key provider "${row.name}" links an external Vault; only managed ones start and stop here`,
      );
    }
    return row;
  }

  return {
    async prepare({ config }) {
      const input = config ?? {};
      const operation = typeof input.operation === "string" ? input.operation.toUpperCase() : "IMPORT";
      if (operation === "CREATE") {
        const prepared = await prepareManaged(input, managedPorts);
        if (prepared.config.port) managedPorts.add(prepared.config.port);
        return { config: { ...prepared.config }, secrets: prepared.secrets };
      }
      if (operation !== "IMPORT") {
        throw new InputError(`config.vault.operation: "${String(input.operation)}" is neither IMPORT nor CREATE`);
      }
      const prepared = await prepareExternal(input);
      return { config: { ...prepared.config }, secrets: prepared.secrets };
    },
    driver(row) {
      const { caEngine } = parseVaultConfig(row.config);
      return createVaultDriver({ target: () => targetOf(row.id), masterKey: ctx.masterKey, caEngine });
    },
    async afterCreate(row) {
      // A managed OpenBao runs, initialised and unsealed, when its create answers (upstream's way).
      if (parseVaultConfig(row.config).mode !== "managed") return;
      await managed.start(row.id).catch((err: unknown) => {
        // Named for the create's body: the provider the message's "id" names is being removed again.
        if (err instanceof InputError) throw new InputError(err.message.replace(/^id: /, "config.vault: "));
        throw err;
      });
    },
    async start(providerId) {
      const row = await managedRow(providerId);
      const { address } = await managed.start(providerId);
      return { success: true, message: `OpenBao of provider "${row.name}" is running and unsealed at ${address}` };
    },
    async stop(providerId) {
      const row = await managedRow(providerId);
      await managed.stop(providerId);
      return { success: true, message: `OpenBao of provider "${row.name}" stopped` };
    },
    async unseal(providerId) {
      const row = await ctx.row(providerId);
      if (parseVaultConfig(row.config).mode !== "managed") {
        throw new InputError(
          `id: key provider "${row.name}" links an external Vault; its operator unseals it (the console holds no unseal keys)`,
        );
      }
      await managed.unseal(providerId);
      return { success: true, message: `OpenBao of provider "${row.name}" is unsealed` };
    },
    async tunePki(providerId, body) {
      return tunePkiMount(ctx, await targetOf(providerId), body);
    },
    async status(providerId) {
      const row = await ctx.row(providerId);
      const cfg = parseVaultConfig(row.config);
      const secrets = await ctx.secrets(providerId);
      return vaultStatus({
        row,
        cfg,
        endpoint: { address: cfg.address, caCert: cfg.caCert, namespace: cfg.namespace },
        consoleDataDir: ctx.dataDir,
        hasUnsealKeys: Boolean(secrets.unsealKeys),
        process: managed.process(providerId),
        binary: managed.binary(),
      });
    },
    async onDelete(row) {
      const cfg = parseVaultConfig(row.config);
      if (cfg.mode !== "managed") return;
      if (cfg.port) managedPorts.delete(cfg.port);
      await managed.remove(row.id);
    },
    async onReady(rows) {
      for (const row of rows) {
        const cfg = parseVaultConfig(row.config);
        if (cfg.mode !== "managed") continue;
        if (cfg.port) managedPorts.add(cfg.port);
        if (row.state !== "running") continue;
        // In the background: a server that is slow to unseal must not hold up the console's boot.
        const p = managed
          .start(row.id)
          .then(() => ctx.log.info({ providerId: row.id }, "managed OpenBao started and unsealed"))
          .catch((err: unknown) =>
            ctx.log.warn({ providerId: row.id, err: (err as Error).message }, "managed OpenBao did not start"),
          )
          .finally(() => bootStarts.delete(p));
        bootStarts.add(p);
      }
    },
    async onClose() {
      await Promise.all([...bootStarts]);
      await managed.close();
    },
  };
}
