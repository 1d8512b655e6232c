import type { Selectable } from "kysely";
import type { DB } from "../../db/db.js";
import type { SessionsTable } from "../../db/types.js";

export type SessionRow = Selectable<SessionsTable>;

/** Server-side sessions, keyed by the SHA-256 of the cookie value. */
export function createSessionsRepo(db: DB) {
  return {
    async insert(row: Omit<SessionRow, "id">): Promise<SessionRow> {
      return db.insertInto("sessions").values(row).returningAll().executeTakeFirstOrThrow();
    },
    async byHash(tokenHash: string): Promise<SessionRow | undefined> {
      return db.selectFrom("sessions").selectAll().where("token_hash", "=", tokenHash).executeTakeFirst();
    },
    async touch(id: number, lastSeen: string, expiresAt: string): Promise<void> {
      await db
        .updateTable("sessions")
        .set({ last_seen_at: lastSeen, expires_at: expiresAt })
        .where("id", "=", id)
        .execute();
    },
    async delete(id: number): Promise<void> {
      await db.deleteFrom("sessions").where("id", "=", id).execute();
    },
    async deleteForUser(userId: number, exceptId?: number): Promise<void> {
      let q = db.deleteFrom("sessions").where("user_id", "=", userId);
      if (exceptId !== undefined) q = q.where("id", "!=", exceptId);
      await q.execute();
    },
    async deleteExpired(now: string): Promise<void> {
      await db.deleteFrom("sessions").where("expires_at", "<", now).execute();
    },
  };
}

export type SessionsRepo = ReturnType<typeof createSessionsRepo>;
