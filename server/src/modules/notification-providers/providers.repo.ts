import type { Insertable, Selectable, Transaction, Updateable } from "kysely";
import type { DB } from "../../db/db.js";
import type { Database, NotificationProvidersTable } from "../../db/types.js";

export type ProviderRow = Selectable<NotificationProvidersTable>;

/** The flag columns a provider is routed by (one per ProviderFlag of events/bus.ts). */
export type FlagColumn =
  | "notify_node_downtime"
  | "notify_backup_success"
  | "notify_backup_failure"
  | "notify_s3_conn_issue"
  | "notify_cert_expiry"
  | "notify_peer_lag"
  | "notify_raft_health";

/** SQL for notification providers. Writes that change the default run in one transaction. */
export function createProvidersRepo(db: DB) {
  const table = (trx?: Transaction<Database>) => trx ?? db;
  return {
    list: (): Promise<ProviderRow[]> => db.selectFrom("notification_providers").selectAll().orderBy("id").execute(),
    byId: (id: number): Promise<ProviderRow | undefined> =>
      db.selectFrom("notification_providers").selectAll().where("id", "=", id).executeTakeFirst(),
    byName: (name: string): Promise<ProviderRow | undefined> =>
      db.selectFrom("notification_providers").selectAll().where("name", "=", name).executeTakeFirst(),
    /** The providers an event with this flag goes to. */
    withFlag: (column: FlagColumn): Promise<ProviderRow[]> =>
      db.selectFrom("notification_providers").selectAll().where(column, "=", 1).orderBy("id").execute(),
    /** Runs `fn` in one transaction (insert or update plus clearing the other defaults). */
    transaction: <T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> => db.transaction().execute(fn),
    async insert(row: Insertable<NotificationProvidersTable>, trx?: Transaction<Database>): Promise<number> {
      return (
        await table(trx).insertInto("notification_providers").values(row).returning("id").executeTakeFirstOrThrow()
      ).id;
    },
    async update(
      id: number,
      patch: Updateable<NotificationProvidersTable>,
      trx?: Transaction<Database>,
    ): Promise<void> {
      await table(trx).updateTable("notification_providers").set(patch).where("id", "=", id).execute();
    },
    /** Clears is_default on every provider but `keepId`. */
    async clearDefault(keepId: number, trx?: Transaction<Database>): Promise<void> {
      await table(trx)
        .updateTable("notification_providers")
        .set({ is_default: 0 })
        .where("id", "!=", keepId)
        .where("is_default", "=", 1)
        .execute();
    },
    async delete(id: number): Promise<void> {
      await db.deleteFrom("notification_providers").where("id", "=", id).execute();
    },
  };
}

export type ProvidersRepo = ReturnType<typeof createProvidersRepo>;
