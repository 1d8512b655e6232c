import { decryptEnvelopeToString, encryptEnvelope } from "../../crypto/envelope.js";
import { nowIso } from "../../db/db.js";
import { ConflictError, InputError, NotFoundError } from "../../http/errors.js";
import { createDatabaseProvider } from "./database-provider.js";
import type { CreateProviderBody, ProviderResponse } from "./key-providers.schema.js";
import type { KeyProviderRow, KeyProvidersRepo } from "./key-providers.repo.js";
import {
  PROVIDER_TYPES,
  type KeyProviderDriver,
  type ProviderBackend,
  type ProviderBackendContext,
  type ProviderType,
} from "./provider.js";
import { isUniqueViolation } from "../../db/unique-violation.js";

/** Name of the provider created on first boot. */
export const BUILT_IN_PROVIDER_NAME = "Database";

function parseConfig(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function toProviderResponse(row: KeyProviderRow): ProviderResponse {
  const type = (PROVIDER_TYPES as readonly string[]).includes(row.type) ? (row.type as ProviderType) : "DATABASE";
  return {
    id: row.id,
    name: row.name,
    type,
    isDefault: row.is_default ? 1 : 0,
    // Stored flat by each backend; answered as the reference's ProviderConfig ({vault} or {awsKms}).
    config:
      type === "VAULT"
        ? { vault: parseConfig(row.config) }
        : type === "AWS_KMS"
          ? { awsKms: parseConfig(row.config) }
          : parseConfig(row.config),
    createdAt: row.created_at,
  };
}

/**
 * Key providers: the built-in DATABASE provider (created on first boot, default) and the
 * registry that turns a provider row into a driver.
 */
export function createKeyProvidersService(deps: {
  repo: KeyProvidersRepo;
  masterKey: () => Buffer;
  /** Remote provider types and how to build them (Vault, AWS KMS); a type without one is refused. */
  backends?: (ctx: ProviderBackendContext) => Partial<Record<ProviderType, ProviderBackend>>;
  dataDir?: string;
  log?: ProviderBackendContext["log"];
}) {
  const { repo } = deps;
  const secretsAad = (id: number) => `chainlaunch:key-provider-secrets:${id}`;
  const backendContext: ProviderBackendContext = {
    dataDir: deps.dataDir ?? "",
    masterKey: deps.masterKey,
    log: deps.log ?? { info: () => undefined, warn: () => undefined },
    async secrets(providerId) {
      const row = await mustGet(providerId);
      if (!row.secrets_encrypted) return {};
      return JSON.parse(
        decryptEnvelopeToString(deps.masterKey(), row.secrets_encrypted, secretsAad(providerId)),
      ) as Record<string, string>;
    },
    async saveSecrets(providerId, secrets) {
      await repo.update(providerId, {
        secrets_encrypted: encryptEnvelope(deps.masterKey(), JSON.stringify(secrets), secretsAad(providerId)),
        updated_at: nowIso(),
      });
    },
    async saveConfig(providerId, config) {
      await repo.update(providerId, { config: JSON.stringify(config), updated_at: nowIso() });
    },
    async saveState(providerId, state) {
      await repo.update(providerId, { state, updated_at: nowIso() });
    },
    row: (providerId) => mustGet(providerId),
    countKeys: (providerId) => repo.countKeys(providerId),
  };
  const backends = deps.backends?.(backendContext) ?? {};
  function backendOf(type: string): ProviderBackend | undefined {
    return (backends as Record<string, ProviderBackend | undefined>)[type];
  }

  async function mustGet(id: number): Promise<KeyProviderRow> {
    const row = await repo.byId(id);
    if (!row) throw new NotFoundError(`key provider ${id} not found`);
    return row;
  }

  /**
   * One driver per provider for the life of the service, so what a driver remembers (the database
   * provider's recently used parsed keys) outlives the call that created it. A deleted provider's
   * id is never reused (ids only grow), and a driver holds no state that its row could contradict.
   */
  const drivers = new Map<number, KeyProviderDriver>();
  function driverOf(row: KeyProviderRow): KeyProviderDriver {
    const known = drivers.get(row.id);
    if (known) return known;
    if (row.type === "DATABASE") {
      const driver = createDatabaseProvider({ providerId: row.id, masterKey: deps.masterKey });
      drivers.set(row.id, driver);
      return driver;
    }
    const backend = backendOf(row.type);
    if (backend) {
      const driver = backend.driver(row);
      drivers.set(row.id, driver);
      return driver;
    }
    throw new InputError(`providerId: provider "${row.name}" is of type ${row.type}, which this release can't use yet`);
  }

  async function resolve(providerId?: number | null): Promise<{ row: KeyProviderRow; driver: KeyProviderDriver }> {
    const row = providerId ? await repo.byId(providerId) : await repo.defaultProvider();
    if (!row) {
      throw providerId
        ? new NotFoundError(`providerId: key provider ${providerId} not found`)
        : new NotFoundError("no default key provider");
    }
    return { row, driver: driverOf(row) };
  }

  return {
    /** Creates the DATABASE provider as the default when no provider exists yet. Idempotent. */
    async ensureBuiltIn(): Promise<KeyProviderRow> {
      return repo.transaction(async (trx) => {
        const existing = (await repo.defaultProvider(trx)) ?? (await repo.firstOfType("DATABASE", trx));
        if (existing) return existing;
        const now = nowIso();
        return repo.insert(
          {
            name: BUILT_IN_PROVIDER_NAME,
            type: "DATABASE",
            is_default: 1,
            config: "{}",
            created_at: now,
            updated_at: now,
          },
          trx,
        );
      });
    },
    async list(): Promise<ProviderResponse[]> {
      return (await repo.list()).map(toProviderResponse);
    },
    async get(id: number): Promise<ProviderResponse> {
      return toProviderResponse(await mustGet(id));
    },
    async create(input: CreateProviderBody): Promise<ProviderResponse> {
      /** A backend's step after the insert; when it fails the create is undone (row, files, server). */
      async function afterCreate(backend: ProviderBackend | undefined, row: KeyProviderRow): Promise<void> {
        if (!backend?.afterCreate) return;
        try {
          await backend.afterCreate(row);
        } catch (err) {
          await repo.delete(row.id).catch(() => undefined);
          drivers.delete(row.id);
          await backend.onDelete?.(row).catch(() => undefined);
          throw err;
        }
      }
      const backend = input.type === "DATABASE" ? undefined : backendOf(input.type);
      if (input.type !== "DATABASE" && !backend) {
        throw new InputError(`type: ${input.type} providers are not supported; use DATABASE, VAULT or AWS_KMS`);
      }
      if (input.type === "DATABASE" && (input.config?.vault || input.config?.awsKms)) {
        throw new InputError("config: a DATABASE provider takes no settings");
      }
      if ((await repo.list()).some((p) => p.name === input.name)) {
        throw new ConflictError(`name: a key provider named '${input.name}' already exists`);
      }
      const prepared = backend
        ? await backend.prepare({
            name: input.name,
            config: (input.type === "VAULT" ? input.config?.vault : input.config?.awsKms) as
              Record<string, unknown> | undefined,
          })
        : { config: {}, secrets: {} };
      const now = nowIso();
      try {
        const row = await repo.transaction(async (trx) => {
          if (input.isDefault === 1) await repo.clearDefault(trx);
          const inserted = await repo.insert(
            {
              name: input.name,
              type: input.type,
              is_default: input.isDefault === 1 ? 1 : 0,
              config: JSON.stringify(prepared.config),
              created_at: now,
              updated_at: now,
            },
            trx,
          );
          if (Object.keys(prepared.secrets).length === 0) return inserted;
          const secrets_encrypted = encryptEnvelope(
            deps.masterKey(),
            JSON.stringify(prepared.secrets),
            secretsAad(inserted.id),
          );
          await repo.update(inserted.id, { secrets_encrypted }, trx);
          return { ...inserted, secrets_encrypted };
        });
        await afterCreate(backend, row);
        return toProviderResponse((await repo.byId(row.id)) ?? row);
      } catch (err) {
        if (isUniqueViolation(err))
          throw new ConflictError(`name: a key provider named '${input.name}' already exists`);
        throw err;
      }
    },
    async remove(id: number): Promise<KeyProviderRow> {
      return repo
        .transaction(async (trx) => {
          const row = await repo.byId(id, trx);
          if (!row) throw new NotFoundError(`key provider ${id} not found`);
          const keys = await repo.countKeys(id, trx);
          if (keys > 0)
            throw new ConflictError(`id: key provider "${row.name}" still holds ${keys} key(s); delete them first`);
          if (row.is_default)
            throw new ConflictError(
              `id: key provider "${row.name}" is the default; make another provider the default first`,
            );
          await repo.delete(id, trx);
          drivers.delete(id);
          return row;
        })
        .then(async (row) => {
          await backendOf(row.type)?.onDelete?.(row);
          return row;
        });
    },
    /** At boot: hands each remote backend its providers (a managed Vault that should run starts). */
    async ready(): Promise<void> {
      const rows = await repo.list();
      for (const [type, backend] of Object.entries(backends) as [string, ProviderBackend][]) {
        await backend.onReady?.(rows.filter((r) => r.type === type));
      }
    },
    async close(): Promise<void> {
      for (const backend of Object.values(backends) as ProviderBackend[]) await backend.onClose?.();
    },
    /** A type's backend, for its own routes (Vault start/stop/status, KMS status). */
    backend<T extends ProviderBackend>(type: ProviderType): T | undefined {
      return backendOf(type) as T | undefined;
    },
    /** The provider row (404 when missing). */
    row: mustGet,
    /**
     * Where a key that must be written to disk goes (a node's signing and TLS keys, admin and
     * client identities): the given provider when it can export, else the built-in DATABASE one.
     * A remote provider's CA still signs those keys' certificates.
     */
    async resolveExportable(providerId?: number | null): Promise<{ row: KeyProviderRow; driver: KeyProviderDriver }> {
      const wanted = await resolve(providerId);
      if (wanted.driver.exportPrivateKeyPem) return wanted;
      const local = await repo.firstOfType("DATABASE");
      if (!local) throw new ConflictError("providerId: no DATABASE key provider holds keys that nodes write to disk");
      return { row: local, driver: driverOf(local) };
    },
    /** The provider to use: the given id (must exist) or the default. */
    resolve,
    /** The driver for an existing key's provider. */
    async driverFor(providerId: number): Promise<{ row: KeyProviderRow; driver: KeyProviderDriver }> {
      const row = await mustGet(providerId);
      return { row, driver: driverOf(row) };
    },
  };
}

export type KeyProvidersService = ReturnType<typeof createKeyProvidersService>;
