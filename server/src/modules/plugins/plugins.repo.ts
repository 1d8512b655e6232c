import type { Insertable, Selectable, Updateable } from "kysely";
import type { DB } from "../../db/db.js";
import type { PluginsTable } from "../../db/types.js";

export type PluginRow = Selectable<PluginsTable>;

/** SQL for plugins: one row per plugin, its definition and its deployment. */
export function createPluginsRepo(db: DB) {
  return {
    list: (): Promise<PluginRow[]> => db.selectFrom("plugins").selectAll().orderBy("name").execute(),
    byName: (name: string): Promise<PluginRow | undefined> =>
      db.selectFrom("plugins").selectAll().where("name", "=", name).executeTakeFirst(),
    /** Plugins whose processes should be running (adopted or started again after a console restart). */
    wanted: (): Promise<PluginRow[]> =>
      db.selectFrom("plugins").selectAll().where("status", "in", ["running", "deploying", "error"]).execute(),
    async insert(row: Insertable<PluginsTable>): Promise<void> {
      await db.insertInto("plugins").values(row).execute();
    },
    async update(name: string, patch: Updateable<PluginsTable>): Promise<void> {
      await db.updateTable("plugins").set(patch).where("name", "=", name).execute();
    },
    /**
     * Moves a plugin to `to` only from one of `from` (one statement, so two deploys racing on
     * either database get one winner). Returns whether this caller won.
     */
    async transition(
      name: string,
      from: string[],
      patch: Updateable<PluginsTable> & { status: string },
    ): Promise<boolean> {
      const r = await db
        .updateTable("plugins")
        .set(patch)
        .where("name", "=", name)
        .where("status", "in", from)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async remove(name: string): Promise<void> {
      await db.deleteFrom("plugins").where("name", "=", name).execute();
    },
  };
}

export type PluginsRepo = ReturnType<typeof createPluginsRepo>;
