import type { DB } from "../../db/db.js";
import { nowIso } from "../../db/db.js";
import type { EventBus } from "../../events/bus.js";
import { settingConfig, type SettingConfig } from "./settings.schema.js";

export interface Setting {
  id: number;
  config: SettingConfig;
  created_at: string;
  updated_at: string;
}

/** One settings document, created with defaults on first read. Changes emit `settings.updated`. */
export function createSettingsService(deps: { db: DB; bus: EventBus }) {
  const { db, bus } = deps;

  function parse(raw: string): SettingConfig {
    let json: unknown = {};
    try {
      json = JSON.parse(raw);
    } catch {
      json = {};
    }
    const parsed = settingConfig.safeParse(json);
    return parsed.success ? parsed.data : settingConfig.parse({});
  }

  async function get(): Promise<Setting> {
    const row = await db.selectFrom("settings").selectAll().orderBy("id").executeTakeFirst();
    if (row) return { ...row, config: parse(row.config) };
    const now = nowIso();
    const config = settingConfig.parse({});
    const created = await db
      .insertInto("settings")
      .values({ config: JSON.stringify(config), created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { ...created, config };
  }

  return {
    get,
    async update(config: SettingConfig): Promise<Setting> {
      const current = await get();
      const now = nowIso();
      await db
        .updateTable("settings")
        .set({ config: JSON.stringify(config), updated_at: now })
        .where("id", "=", current.id)
        .execute();
      const next = { ...current, config, updated_at: now };
      bus.publish("settings.updated", { id: next.id, updated_at: now });
      return next;
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
