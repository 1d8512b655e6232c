import type { Selectable } from "kysely";
import type { DB } from "../../db/db.js";
import type { ApiKeyLogsTable, ApiKeysTable } from "../../db/types.js";

export type ApiKeyRow = Selectable<ApiKeysTable>;
export type ApiKeyLogRow = Selectable<ApiKeyLogsTable>;

/** SQL for API keys and their usage log. */
export function createApiKeysRepo(db: DB) {
  return {
    async insert(row: Omit<ApiKeyRow, "id">): Promise<ApiKeyRow> {
      return db.insertInto("api_keys").values(row).returningAll().executeTakeFirstOrThrow();
    },
    async listForUser(userId: number): Promise<ApiKeyRow[]> {
      return db.selectFrom("api_keys").selectAll().where("user_id", "=", userId).orderBy("id", "desc").execute();
    },
    async byId(id: number): Promise<ApiKeyRow | undefined> {
      return db.selectFrom("api_keys").selectAll().where("id", "=", id).executeTakeFirst();
    },
    async byHash(hash: string): Promise<ApiKeyRow | undefined> {
      return db.selectFrom("api_keys").selectAll().where("key_hash", "=", hash).executeTakeFirst();
    },
    async deactivate(id: number, now: string): Promise<void> {
      await db.updateTable("api_keys").set({ is_active: 0, updated_at: now }).where("id", "=", id).execute();
    },
    async markUsed(id: number, now: string): Promise<void> {
      await db.updateTable("api_keys").set({ last_used_at: now }).where("id", "=", id).execute();
    },
    async insertLog(row: Omit<ApiKeyLogRow, "id">): Promise<void> {
      await db.insertInto("api_key_logs").values(row).execute();
    },
    async logs(apiKeyId: number, limit: number): Promise<ApiKeyLogRow[]> {
      return db
        .selectFrom("api_key_logs")
        .selectAll()
        .where("api_key_id", "=", apiKeyId)
        .orderBy("id", "desc")
        .limit(limit)
        .execute();
    },
  };
}

export type ApiKeysRepo = ReturnType<typeof createApiKeysRepo>;
