import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ConflictError, InputError, UpstreamError } from "../../../http/errors.js";
import { createSupervisor, minimalEnv, type ProcessSpec, type ProcessState } from "../../../runtime/supervisor.js";
import type { ProviderBackendContext } from "../provider.js";
import { requireBaoBinary } from "./openbao-binary.js";
import { ensureListenerTls, openBaoLayout, writeServerConfig } from "./openbao-files.js";
import { ensureMounts, parseVaultConfig } from "./vault-config.js";
import { sealStatus, vaultErrorText, vaultRequest, type VaultEndpoint } from "./vault-http.js";

/** The credentials a managed OpenBao's init hands out, kept encrypted in the provider's secrets. */
interface ManagedSecrets {
  rootToken?: string;
  /** JSON array of base64 unseal keys. */
  unsealKeys?: string;
}

export interface ManagedOpenBao {
  start(providerId: number): Promise<{ address: string }>;
  stop(providerId: number): Promise<void>;
  /** Unseals a running server with the stored keys (409 when it isn't running). */
  unseal(providerId: number): Promise<void>;
  /** The supervised process, if this console runs it. */
  process(providerId: number): ProcessState | undefined;
  binary(): string | undefined;
  /** Stops the process (if any) and removes its files: the provider is gone. */
  remove(providerId: number): Promise<void>;
  /** Console shutdown: stops every server, keeping each provider's wanted state for the next boot. */
  close(): Promise<void>;
}

const processId = (providerId: number): string => `openbao-${providerId}`;
const ACTIVE_TIMEOUT_MS = 30_000;
const INIT_TIMEOUT_MS = 60_000;

/**
 * Runs managed OpenBao servers as supervised child processes: one per provider, raft storage and
 * TLS on loopback in `<dataDir>/vaults/<id>/`. Init happens on the first start (the unseal keys and
 * root token go to the provider's encrypted secrets); every start, and every restart after a crash,
 * unseals with the stored keys.
 */
export function createManagedOpenBao(ctx: ProviderBackendContext): ManagedOpenBao {
  const vaultsDir = join(ctx.dataDir, "vaults");
  /** Starts in progress: a crash-restart seen meanwhile is theirs to unseal. */
  const starting = new Set<number>();
  const locks = new Map<number, Promise<unknown>>();
  let lastBinary: string | undefined;

  const supervisor = createSupervisor({
    stateDir: vaultsDir,
    startTimeoutMs: 30_000,
    stopTimeoutMs: 10_000,
    onEvent: (ev) => {
      if (ev.type !== "status" || ev.status !== "RUNNING") return;
      const id = Number(ev.id.replace(/^openbao-/, ""));
      if (!Number.isInteger(id) || starting.has(id)) return;
      // Restarted after a crash: it comes back sealed.
      void unseal(id).catch((err: unknown) =>
        ctx.log.warn({ providerId: id, err: (err as Error).message }, "unsealing restarted OpenBao failed"),
      );
    },
  });

  /** Runs fn after every earlier start/stop of the same provider. */
  function serial<T>(providerId: number, fn: () => Promise<T>): Promise<T> {
    const prev = locks.get(providerId) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    locks.set(
      providerId,
      next.catch(() => undefined),
    );
    return next;
  }

  async function endpointOf(providerId: number): Promise<{ ep: VaultEndpoint; name: string }> {
    const row = await ctx.row(providerId);
    const cfg = parseVaultConfig(row.config);
    return { ep: { address: cfg.address, caCert: cfg.caCert, timeoutMs: 10_000 }, name: row.name };
  }

  function keysOf(secrets: ManagedSecrets): string[] {
    try {
      const keys = JSON.parse(secrets.unsealKeys ?? "[]") as unknown;
      return Array.isArray(keys) ? keys.filter((k): k is string => typeof k === "string") : [];
    } catch {
      return [];
    }
  }

  /** Initialises the server when new, then unseals it and waits until it is the active node. */
  async function unseal(providerId: number): Promise<void> {
    const { ep, name } = await endpointOf(providerId);
    const cfg = parseVaultConfig((await ctx.row(providerId)).config);
    let secrets = (await ctx.secrets(providerId)) as ManagedSecrets;
    let seal = await sealStatus(ep);
    if (!seal.initialized) {
      if (secrets.unsealKeys) {
        ctx.log.warn(
          { providerId },
          "managed OpenBao storage is empty although it was initialised before; initialising anew",
        );
      }
      // Init bootstraps raft and waits for its first election: slow on a loaded machine.
      const init = await vaultRequest({ ...ep, timeoutMs: INIT_TIMEOUT_MS }, "PUT", "/v1/sys/init", {
        secret_shares: cfg.shares ?? 3,
        secret_threshold: cfg.threshold ?? 2,
      });
      const keys = init.body.keys_base64;
      const rootToken = init.body.root_token;
      if (init.status !== 200 || !Array.isArray(keys) || typeof rootToken !== "string") {
        throw new UpstreamError(`id: initialising OpenBao of provider "${name}" failed: ${vaultErrorText(init)}`);
      }
      secrets = { rootToken, unsealKeys: JSON.stringify(keys) };
      await ctx.saveSecrets(providerId, secrets as Record<string, string>);
      ctx.log.info({ providerId, shares: keys.length }, "managed OpenBao initialised; unseal keys stored encrypted");
      seal = await sealStatus(ep);
    }
    if (seal.sealed) {
      const keys = keysOf(secrets);
      if (keys.length === 0) {
        throw new UpstreamError(`id: OpenBao of provider "${name}" is sealed and the console holds no unseal keys`);
      }
      for (const key of keys) {
        const res = await vaultRequest(ep, "PUT", "/v1/sys/unseal", { key });
        if (res.status !== 200) {
          throw new UpstreamError(`id: unsealing OpenBao of provider "${name}" failed: ${vaultErrorText(res)}`);
        }
        if (res.body.sealed === false) break;
      }
      if ((await sealStatus(ep)).sealed) {
        throw new UpstreamError(
          `id: OpenBao of provider "${name}" stayed sealed: the stored unseal keys don't open it`,
        );
      }
    }
    // Raft elects itself leader a moment after unsealing; until then writes answer 5xx.
    const deadline = Date.now() + ACTIVE_TIMEOUT_MS;
    for (;;) {
      const health = await vaultRequest(ep, "GET", "/v1/sys/health").catch(() => undefined);
      if (health?.status === 200) break;
      if (Date.now() > deadline) {
        throw new UpstreamError(`id: OpenBao of provider "${name}" did not become active within 30 s`);
      }
      await sleep(200);
    }
    await ensureMounts({ ...ep, token: secrets.rootToken }, cfg, "config.vault");
  }

  async function start(providerId: number): Promise<{ address: string }> {
    const row = await ctx.row(providerId);
    const cfg = parseVaultConfig(row.config);
    if (cfg.mode !== "managed" || !cfg.port) {
      throw new InputError(
        `id: key provider "${row.name}" links an external Vault; only managed ones are started here`,
      );
    }
    const state = supervisor.get(processId(providerId));
    if (state && (state.status === "RUNNING" || state.status === "STARTING")) {
      throw new ConflictError(`id: OpenBao of provider "${row.name}" is already running`);
    }
    const bin = requireBaoBinary();
    lastBinary = bin;
    const layout = openBaoLayout(ctx.dataDir, providerId);
    const caCert = await ensureListenerTls(layout);
    if (cfg.caCert !== caCert) {
      const stored = JSON.parse(row.config) as Record<string, unknown>;
      await ctx.saveConfig(providerId, { ...stored, caCert });
    }
    await writeServerConfig(layout, cfg.port);
    const ep: VaultEndpoint = { address: cfg.address, caCert, timeoutMs: 2000 };
    const spec: ProcessSpec = {
      id: processId(providerId),
      command: bin,
      args: ["server", `-config=${layout.configFile}`],
      env: minimalEnv(),
      cwd: layout.dir,
      logFile: layout.logFile,
      // Any answer from the API means the listener is up (sealed servers answer too).
      probe: async () =>
        await sealStatus(ep)
          .then(() => true)
          .catch(() => false),
    };
    starting.add(providerId);
    try {
      const started = await supervisor.start(spec);
      if (started.status !== "RUNNING") {
        throw new UpstreamError(
          `id: OpenBao of provider "${row.name}" did not start: ${started.errorMessage ?? started.status}`,
        );
      }
      try {
        await unseal(providerId);
      } catch (err) {
        const now = supervisor.get(spec.id);
        if (now?.pid !== undefined && now.pid !== started.pid) {
          // It crashed while being unsealed and the supervisor restarted it: unseal that one instead.
          starting.delete(providerId);
          void unseal(providerId).catch(() => undefined);
        } else await supervisor.stop(spec.id).catch(() => undefined);
        throw err;
      }
    } finally {
      starting.delete(providerId);
    }
    await ctx.saveState(providerId, "running");
    return { address: cfg.address };
  }

  return {
    start: (providerId) => serial(providerId, () => start(providerId)),
    stop: (providerId) =>
      serial(providerId, async () => {
        const row = await ctx.row(providerId);
        const state = supervisor.get(processId(providerId));
        if (!state || state.status === "STOPPED" || state.status === "PENDING") {
          throw new ConflictError(`id: OpenBao of provider "${row.name}" is not running`);
        }
        await supervisor.stop(processId(providerId));
        await ctx.saveState(providerId, "stopped");
      }),
    unseal: (providerId) =>
      serial(providerId, async () => {
        const row = await ctx.row(providerId);
        const state = supervisor.get(processId(providerId));
        if (!state || state.status === "STOPPED" || state.status === "PENDING") {
          throw new ConflictError(
            `id: OpenBao of provider "${row.name}" is not running; start it (it unseals on start)`,
          );
        }
        await unseal(providerId);
      }),
    process: (providerId) => supervisor.get(processId(providerId)),
    binary: () => lastBinary,
    async remove(providerId) {
      await serial(providerId, async () => {
        if (supervisor.get(processId(providerId))) {
          await supervisor.stop(processId(providerId)).catch(() => undefined);
          supervisor.remove(processId(providerId));
        }
        const dir = openBaoLayout(ctx.dataDir, providerId).dir;
        if (existsSync(dir)) await rm(dir, { recursive: true, force: true });
      });
    },
    async close() {
      await Promise.all([...locks.values()]);
      await Promise.all(
        supervisor
          .list()
          .filter((s) => s.status !== "STOPPED")
          .map((s) => supervisor.stop(s.id).catch(() => undefined)),
      );
      supervisor.close();
    },
  };
}
