import type { Insertable, Selectable, Transaction, Updateable } from "kysely";
import type { DB } from "../../db/db.js";
import type { Database, KeysTable } from "../../db/types.js";

export type KeyRow = Selectable<KeysTable>;
export type KeyWithProviderRow = KeyRow & { provider_name: string; provider_type: string };

export interface KeyFilter {
  providerId?: number | undefined;
  algorithm?: string | undefined;
  curve?: string | undefined;
}

/** SQL for keys. Rows hold the encrypted private key; services must never return them as is. */
export function createKeysRepo(db: DB) {
  const q = (trx?: Transaction<Database>) => trx ?? db;
  const withProvider = (trx?: Transaction<Database>) =>
    q(trx)
      .selectFrom("keys")
      .innerJoin("key_providers", "key_providers.id", "keys.provider_id")
      .selectAll("keys")
      .select(["key_providers.name as provider_name", "key_providers.type as provider_type"]);
  function filtered(f: KeyFilter, trx?: Transaction<Database>) {
    let query = withProvider(trx);
    if (f.providerId) query = query.where("keys.provider_id", "=", f.providerId);
    if (f.algorithm) query = query.where("keys.algorithm", "=", f.algorithm);
    if (f.curve) query = query.where("keys.curve", "=", f.curve);
    return query;
  }
  return {
    async page(f: KeyFilter, limit: number, offset: number): Promise<{ rows: KeyWithProviderRow[]; total: number }> {
      const rows = await filtered(f).orderBy("keys.id").limit(limit).offset(offset).execute();
      let count = db.selectFrom("keys").select((eb) => eb.fn.countAll<string | number>().as("n"));
      if (f.providerId) count = count.where("provider_id", "=", f.providerId);
      if (f.algorithm) count = count.where("algorithm", "=", f.algorithm);
      if (f.curve) count = count.where("curve", "=", f.curve);
      const r = await count.executeTakeFirstOrThrow();
      return { rows, total: Number(r.n) };
    },
    async all(): Promise<KeyWithProviderRow[]> {
      return withProvider().orderBy("keys.id").execute();
    },
    async byId(id: number, trx?: Transaction<Database>): Promise<KeyWithProviderRow | undefined> {
      return withProvider(trx).where("keys.id", "=", id).executeTakeFirst();
    },
    async byIds(ids: number[], trx?: Transaction<Database>): Promise<KeyWithProviderRow[]> {
      if (ids.length === 0) return [];
      return withProvider(trx).where("keys.id", "in", ids).orderBy("keys.id").execute();
    },
    async insert(row: Insertable<KeysTable>, trx?: Transaction<Database>): Promise<KeyRow> {
      return q(trx).insertInto("keys").values(row).returningAll().executeTakeFirstOrThrow();
    },
    async update(id: number, patch: Updateable<KeysTable>, trx?: Transaction<Database>): Promise<void> {
      await q(trx).updateTable("keys").set(patch).where("id", "=", id).execute();
    },
    async activate(ids: number[], trx?: Transaction<Database>): Promise<void> {
      if (ids.length === 0) return;
      await q(trx)
        .updateTable("keys")
        .set({ status: "active" })
        .where("id", "in", ids)
        .where("status", "=", "pending")
        .execute();
    },
    async delete(ids: number[], trx?: Transaction<Database>): Promise<void> {
      if (ids.length === 0) return;
      await q(trx).deleteFrom("keys").where("id", "in", ids).execute();
    },
    transaction<T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
      return db.transaction().execute(fn);
    },
  };
}

export type KeysRepo = ReturnType<typeof createKeysRepo>;

/**
 * Keys a multi-key creation (an organization's five) made but whose owner never committed: the process
 * died in between. They are created with status "pending" and activated in the owner's transaction,
 * so at boot, before any request, every pending key is an orphan. One statement, so keys that
 * reference each other (a leaf signed by its pending CA) go together. Returns how many were removed.
 */
export async function deletePendingKeys(db: DB): Promise<number> {
  const r = await db.deleteFrom("keys").where("status", "=", "pending").executeTakeFirst();
  return Number(r.numDeletedRows);
}
