import { nowIso } from "../../db/db.js";
import { ConflictError, InputError, NotFoundError } from "../../http/errors.js";
import { createDatabaseProvider } from "./database-provider.js";
import type { CreateProviderBody, ProviderResponse } from "./key-providers.schema.js";
import type { KeyProviderRow, KeyProvidersRepo } from "./key-providers.repo.js";
import { PROVIDER_TYPES, type KeyProviderDriver, type ProviderType } from "./provider.js";
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
    config: parseConfig(row.config),
    createdAt: row.created_at,
  };
}

/**
 * Key providers: the built-in DATABASE provider (created on first boot, default) and the
 * registry that turns a provider row into a driver.
 */
export function createKeyProvidersService(deps: { repo: KeyProvidersRepo; masterKey: () => Buffer }) {
  const { repo } = deps;

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
    throw new InputError(`providerId: provider "${row.name}" is of type ${row.type}, which this release can't use yet`);
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
      if (input.type !== "DATABASE") {
        throw new InputError(`type: ${input.type} providers are not supported yet; use DATABASE`);
      }
      const now = nowIso();
      try {
        const row = await repo.transaction(async (trx) => {
          if (input.isDefault === 1) await repo.clearDefault(trx);
          return repo.insert(
            {
              name: input.name,
              type: input.type,
              is_default: input.isDefault === 1 ? 1 : 0,
              config: "{}",
              created_at: now,
              updated_at: now,
            },
            trx,
          );
        });
        return toProviderResponse(row);
      } catch (err) {
        if (isUniqueViolation(err))
          throw new ConflictError(`name: a key provider named '${input.name}' already exists`);
        throw err;
      }
    },
    async remove(id: number): Promise<KeyProviderRow> {
      return repo.transaction(async (trx) => {
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
      });
    },
    /** The provider to use: the given id (must exist) or the default. */
    async resolve(providerId?: number | null): Promise<{ row: KeyProviderRow; driver: KeyProviderDriver }> {
      const row = providerId ? await repo.byId(providerId) : await repo.defaultProvider();
      if (!row) {
        throw providerId
          ? new NotFoundError(`providerId: key provider ${providerId} not found`)
          : new NotFoundError("no default key provider");
      }
      return { row, driver: driverOf(row) };
    },
    /** The driver for an existing key's provider. */
    async driverFor(providerId: number): Promise<{ row: KeyProviderRow; driver: KeyProviderDriver }> {
      const row = await mustGet(providerId);
      return { row, driver: driverOf(row) };
    },
  };
}

export type KeyProvidersService = ReturnType<typeof createKeyProvidersService>;
