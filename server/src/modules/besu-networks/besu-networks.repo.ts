import type { Selectable } from "kysely";
import type { DB } from "../../db/db.js";
import type { NetworksTable } from "../../db/types.js";

export type NetworkRow = Selectable<NetworksTable>;

/** SQL for Besu networks (rows of `networks` with platform BESU). */
export function createBesuNetworksRepo(db: DB) {
  const besu = () => db.selectFrom("networks").where("platform", "=", "BESU");
  return {
    async insert(row: Omit<NetworkRow, "id" | "config_block">, validatorKeyIds: number[]): Promise<NetworkRow> {
      return db.transaction().execute(async (trx) => {
        const created = await trx.insertInto("networks").values(row).returningAll().executeTakeFirstOrThrow();
        if (validatorKeyIds.length) {
          await trx
            .insertInto("network_validator_keys")
            .values(validatorKeyIds.map((key_id) => ({ network_id: created.id, key_id })))
            .execute();
        }
        return created;
      });
    },
    async list(limit: number, offset: number, name?: string): Promise<{ rows: NetworkRow[]; total: number }> {
      let q = besu();
      if (name) q = q.where("name", "like", `%${name.replace(/[%_\\]/g, (c) => `\\${c}`)}%`);
      const rows = await q.selectAll().orderBy("id", "desc").limit(limit).offset(offset).execute();
      const c = await q.select((eb) => eb.fn.countAll<string | number>().as("n")).executeTakeFirstOrThrow();
      return { rows, total: Number(c.n) };
    },
    async byId(id: number): Promise<NetworkRow | undefined> {
      return besu().selectAll().where("id", "=", id).executeTakeFirst();
    },
    async byChainId(chainId: number): Promise<NetworkRow | undefined> {
      return besu().selectAll().where("chain_id", "=", chainId).executeTakeFirst();
    },
    async byName(name: string): Promise<NetworkRow | undefined> {
      return db.selectFrom("networks").selectAll().where("name", "=", name).executeTakeFirst();
    },
    async delete(id: number): Promise<void> {
      await db.deleteFrom("networks").where("id", "=", id).execute();
    },
    /** Name of a network whose validators include this key, if any. */
    async networkUsingKey(keyId: number): Promise<string | undefined> {
      const r = await db
        .selectFrom("network_validator_keys as v")
        .innerJoin("networks as n", "n.id", "v.network_id")
        .select("n.name")
        .where("v.key_id", "=", keyId)
        .executeTakeFirst();
      return r?.name;
    },
  };
}

export type BesuNetworksRepo = ReturnType<typeof createBesuNetworksRepo>;
