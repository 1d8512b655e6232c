import { sql, type Insertable, type Selectable, type Transaction, type Updateable } from "kysely";
import type { DB } from "../../db/db.js";
import type { Dialect } from "../../db/migrations/helpers.js";
import type { Database, UsersTable } from "../../db/types.js";
import { reusableQuery } from "../../db/reusable-query.js";

export type UserRow = Selectable<UsersTable>;

/** SQL for users. */
export function createUsersRepo(db: DB, dialect: Dialect = "sqlite") {
  const q = (trx?: Transaction<Database>) => trx ?? db;
  // Every HTTP Basic request reads its user: compiled once (see reusableQuery).
  const byUsername = reusableQuery<[string], UserRow>(1, (name) =>
    db
      .selectFrom("users")
      .selectAll()
      .where(sql`lower(username)`, "=", name),
  );
  return {
    async list(): Promise<UserRow[]> {
      return db.selectFrom("users").selectAll().orderBy("id").execute();
    },
    async count(): Promise<number> {
      const r = await db
        .selectFrom("users")
        .select((eb) => eb.fn.countAll<string | number>().as("n"))
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async byId(id: number, trx?: Transaction<Database>): Promise<UserRow | undefined> {
      return q(trx).selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
    },
    /** By username in any case (usernames are unique regardless of case). */
    async byUsername(username: string): Promise<UserRow | undefined> {
      return (await db.executeQuery(byUsername.with(username.toLowerCase()))).rows[0];
    },
    async insert(row: Insertable<UsersTable>, trx?: Transaction<Database>): Promise<UserRow> {
      return q(trx).insertInto("users").values(row).returningAll().executeTakeFirstOrThrow();
    },
    async update(id: number, patch: Updateable<UsersTable>, trx?: Transaction<Database>): Promise<UserRow | undefined> {
      return q(trx).updateTable("users").set(patch).where("id", "=", id).returningAll().executeTakeFirst();
    },
    async delete(id: number, trx?: Transaction<Database>): Promise<void> {
      await q(trx).deleteFrom("users").where("id", "=", id).execute();
    },
    /**
     * The admins' ids, locked until the transaction ends (PostgreSQL `FOR UPDATE`, in id order so two
     * callers never deadlock). A concurrent demotion or deletion of an admin waits for this transaction,
     * then sees its outcome. SQLite transactions on the one connection already run one at a time.
     */
    async lockAdminIds(trx: Transaction<Database>): Promise<number[]> {
      const query = trx.selectFrom("users").select("id").where("role", "=", "admin").orderBy("id");
      const rows = await (dialect === "postgres" ? query.forUpdate() : query).execute();
      return rows.map((r) => r.id);
    },
    transaction<T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
      return db.transaction().execute(fn);
    },
  };
}

export type UsersRepo = ReturnType<typeof createUsersRepo>;
