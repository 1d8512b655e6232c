import type { Selectable } from "kysely";
import type { DB } from "../../db/db.js";
import type { UserNotificationsTable } from "../../db/types.js";

export type NotificationRow = Selectable<UserNotificationsTable>;

/** A page of one user's notifications, optionally only read or unread ones, or one event type. */
export interface ListOptions {
  limit: number;
  offset: number;
  isRead?: boolean | undefined;
  eventType?: string | undefined;
}

/** SQL for per-user notifications. Every query is scoped by user id. */
export function createNotificationsRepo(db: DB) {
  return {
    async insert(row: Omit<NotificationRow, "id">): Promise<NotificationRow> {
      return db.insertInto("user_notifications").values(row).returningAll().executeTakeFirstOrThrow();
    },
    async list(userId: number, opts: ListOptions) {
      let q = db.selectFrom("user_notifications").where("user_id", "=", userId);
      if (opts.isRead !== undefined) q = q.where("is_read", "=", opts.isRead ? 1 : 0);
      if (opts.eventType !== undefined) q = q.where("event_type", "=", opts.eventType);
      const rows = await q.selectAll().orderBy("id", "desc").limit(opts.limit).offset(opts.offset).execute();
      const c = await q.select((eb) => eb.fn.countAll<string | number>().as("n")).executeTakeFirstOrThrow();
      return { rows, total: Number(c.n) };
    },
    async unreadCount(userId: number): Promise<number> {
      const c = await db
        .selectFrom("user_notifications")
        .where("user_id", "=", userId)
        .where("is_read", "=", 0)
        .select((eb) => eb.fn.countAll<string | number>().as("n"))
        .executeTakeFirstOrThrow();
      return Number(c.n);
    },
    async setRead(userId: number, id: number, read: boolean): Promise<boolean> {
      const r = await db
        .updateTable("user_notifications")
        .set({ is_read: read ? 1 : 0 })
        .where("user_id", "=", userId)
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    /** Marks the user's unread notifications read (only those of `eventType` when given); returns how many. */
    async readAll(userId: number, eventType?: string): Promise<number> {
      let q = db
        .updateTable("user_notifications")
        .set({ is_read: 1 })
        .where("user_id", "=", userId)
        .where("is_read", "=", 0);
      if (eventType !== undefined) q = q.where("event_type", "=", eventType);
      const r = await q.executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    async delete(userId: number, id: number): Promise<boolean> {
      const r = await db
        .deleteFrom("user_notifications")
        .where("user_id", "=", userId)
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
    async userIds(): Promise<number[]> {
      return (await db.selectFrom("users").select("id").execute()).map((r) => r.id);
    },
  };
}

export type NotificationsRepo = ReturnType<typeof createNotificationsRepo>;
