import type { Insertable, Selectable, Transaction, Updateable } from "kysely";
import type { DB } from "../../db/db.js";
import type { Database, KeyProvidersTable } from "../../db/types.js";

export type KeyProviderRow = Selectable<KeyProvidersTable>;

/** SQL for key providers. */
export function createKeyProvidersRepo(db: DB) {
  const q = (trx?: Transaction<Database>) => trx ?? db;
  return {
    async list(trx?: Transaction<Database>): Promise<KeyProviderRow[]> {
      return q(trx).selectFrom("key_providers").selectAll().orderBy("id").execute();
    },
    async byId(id: number, trx?: Transaction<Database>): Promise<KeyProviderRow | undefined> {
      return q(trx).selectFrom("key_providers").selectAll().where("id", "=", id).executeTakeFirst();
    },
    async defaultProvider(trx?: Transaction<Database>): Promise<KeyProviderRow | undefined> {
      return q(trx)
        .selectFrom("key_providers")
        .selectAll()
        .where("is_default", "=", 1)
        .orderBy("id")
        .executeTakeFirst();
    },
    async firstOfType(type: string, trx?: Transaction<Database>): Promise<KeyProviderRow | undefined> {
      return q(trx).selectFrom("key_providers").selectAll().where("type", "=", type).orderBy("id").executeTakeFirst();
    },
    async insert(row: Insertable<KeyProvidersTable>, trx?: Transaction<Database>): Promise<KeyProviderRow> {
      return q(trx).insertInto("key_providers").values(row).returningAll().executeTakeFirstOrThrow();
    },
    async update(id: number, set: Updateable<KeyProvidersTable>, trx?: Transaction<Database>): Promise<void> {
      await q(trx).updateTable("key_providers").set(set).where("id", "=", id).execute();
    },
    async clearDefault(trx?: Transaction<Database>): Promise<void> {
      await q(trx).updateTable("key_providers").set({ is_default: 0 }).where("is_default", "=", 1).execute();
    },
    async delete(id: number, trx?: Transaction<Database>): Promise<void> {
      await q(trx).deleteFrom("key_providers").where("id", "=", id).execute();
    },
    async countKeys(id: number, trx?: Transaction<Database>): Promise<number> {
      const r = await q(trx)
        .selectFrom("keys")
        .select((eb) => eb.fn.countAll<string | number>().as("n"))
        .where("provider_id", "=", id)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    transaction<T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
      return db.transaction().execute(fn);
    },
  };
}

export type KeyProvidersRepo = ReturnType<typeof createKeyProvidersRepo>;
