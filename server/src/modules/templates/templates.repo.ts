import { sql, type Insertable, type Selectable, type Transaction } from "kysely";
import type { DB } from "../../db/db.js";
import type { Dialect } from "../../db/migrations/helpers.js";
import type { Database, NodeTemplatesTable } from "../../db/types.js";

export type TemplateRow = Selectable<NodeTemplatesTable>;
type Trx = Transaction<Database>;

export interface TemplateFilter {
  platform?: string;
  node_type?: string;
  /** Text in the name or description, case-insensitive. */
  text?: string;
}

/** SQL for node templates. Only active rows are read; deletion sets is_active 0. */
export function createTemplatesRepo(db: DB, dialect: Dialect) {
  const q = (trx?: Trx) => trx ?? db;
  const active = () => db.selectFrom("node_templates").selectAll().where("is_active", "=", 1);

  /**
   * Locks the (platform, node_type) group's rows in id order (PostgreSQL), so two transactions
   * changing its default queue instead of deadlocking; SQLite writers are serialised already.
   */
  async function lockGroup(trx: Trx, platform: string, nodeType: string): Promise<void> {
    if (dialect !== "postgres") return;
    await trx
      .selectFrom("node_templates")
      .select("id")
      .where("platform", "=", platform)
      .where("node_type", "=", nodeType)
      .orderBy("id")
      .forUpdate()
      .execute();
  }

  async function get(id: number, trx?: Trx): Promise<TemplateRow | undefined> {
    return q(trx)
      .selectFrom("node_templates")
      .selectAll()
      .where("id", "=", id)
      .where("is_active", "=", 1)
      .executeTakeFirst();
  }

  return {
    get,
    async list(f: TemplateFilter): Promise<TemplateRow[]> {
      let query = active();
      if (f.platform) query = query.where("platform", "=", f.platform);
      if (f.node_type) query = query.where("node_type", "=", f.node_type);
      if (f.text) {
        const like = `%${f.text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        query = query.where((eb) =>
          eb.or([
            eb(sql`lower(name)`, "like", sql`${like} escape '\\'`),
            eb(sql`lower(description)`, "like", sql`${like} escape '\\'`),
          ]),
        );
      }
      return query.orderBy("platform").orderBy("node_type").orderBy("name").orderBy("id").execute();
    },
    async popular(limit: number): Promise<TemplateRow[]> {
      return active().orderBy("usage_count", "desc").orderBy("id").limit(limit).execute();
    },
    async defaultOf(platform: string, nodeType: string): Promise<TemplateRow | undefined> {
      return active()
        .where("platform", "=", platform)
        .where("node_type", "=", nodeType)
        .where("is_default", "=", 1)
        .executeTakeFirst();
    },
    /** Inserts a template; a default clears the group's other default in the same transaction. */
    async insert(row: Insertable<NodeTemplatesTable>): Promise<TemplateRow> {
      return db.transaction().execute(async (trx) => {
        if (row.is_default) {
          await lockGroup(trx, row.platform, row.node_type);
          await clearDefault(trx, row.platform, row.node_type);
        }
        return trx.insertInto("node_templates").values(row).returningAll().executeTakeFirstOrThrow();
      });
    },
    /** Inserts a built-in template once ever (by its key); none when a row with the key exists. */
    async insertBuiltin(row: Insertable<NodeTemplatesTable> & { builtin: string }): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        await lockGroup(trx, row.platform, row.node_type);
        const hasDefault = await trx
          .selectFrom("node_templates")
          .select("id")
          .where("platform", "=", row.platform)
          .where("node_type", "=", row.node_type)
          .where("is_default", "=", 1)
          .executeTakeFirst();
        const res = await trx
          .insertInto("node_templates")
          .values({ ...row, is_default: hasDefault ? 0 : 1 })
          .onConflict((oc) => oc.column("builtin").doNothing())
          .executeTakeFirst();
        return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
      });
    },
    /**
     * Changes a template; `isDefault` true makes it its group's only default, false clears it,
     * undefined leaves it. One transaction.
     */
    async update(
      id: number,
      patch: Partial<Pick<TemplateRow, "name" | "description" | "version" | "config" | "variables" | "tags">>,
      isDefault: boolean | undefined,
      now: string,
    ): Promise<TemplateRow | undefined> {
      return db.transaction().execute(async (trx) => {
        const cur = await get(id, trx);
        if (!cur) return undefined;
        if (isDefault) {
          await lockGroup(trx, cur.platform, cur.node_type);
          await clearDefault(trx, cur.platform, cur.node_type, id);
        }
        return trx
          .updateTable("node_templates")
          .set({ ...patch, ...(isDefault === undefined ? {} : { is_default: isDefault ? 1 : 0 }), updated_at: now })
          .where("id", "=", id)
          .where("is_active", "=", 1)
          .returningAll()
          .executeTakeFirst();
      });
    },
    /** Makes a template its group's only default, in one transaction. False when it does not exist. */
    async setDefault(id: number, now: string): Promise<TemplateRow | undefined> {
      return db.transaction().execute(async (trx) => {
        const cur = await get(id, trx);
        if (!cur) return undefined;
        await lockGroup(trx, cur.platform, cur.node_type);
        await clearDefault(trx, cur.platform, cur.node_type, id);
        return trx
          .updateTable("node_templates")
          .set({ is_default: 1, updated_at: now })
          .where("id", "=", id)
          .where("is_active", "=", 1)
          .returningAll()
          .executeTakeFirst();
      });
    },
    /** Soft delete: inactive and no longer a default. False when there was no active template. */
    async deactivate(id: number, now: string): Promise<boolean> {
      const res = await db
        .updateTable("node_templates")
        .set({ is_active: 0, is_default: 0, updated_at: now })
        .where("id", "=", id)
        .where("is_active", "=", 1)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },
    /** Counts one use, atomically (concurrent applies each count). */
    async countUse(id: number): Promise<void> {
      await db
        .updateTable("node_templates")
        .set((eb) => ({ usage_count: eb("usage_count", "+", 1) }))
        .where("id", "=", id)
        .execute();
    },
  };

  async function clearDefault(trx: Trx, platform: string, nodeType: string, except?: number): Promise<void> {
    let query = trx
      .updateTable("node_templates")
      .set({ is_default: 0 })
      .where("platform", "=", platform)
      .where("node_type", "=", nodeType)
      .where("is_default", "=", 1);
    if (except !== undefined) query = query.where("id", "!=", except);
    await query.execute();
  }
}

export type TemplatesRepo = ReturnType<typeof createTemplatesRepo>;
