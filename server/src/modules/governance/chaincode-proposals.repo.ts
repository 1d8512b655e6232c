import type { Insertable, Selectable } from "kysely";
import type { DB } from "../../db/db.js";
import type { ChaincodeProposalsTable } from "../../db/types.js";
import { isUniqueViolation } from "../../db/unique-violation.js";

export type ChaincodeProposalRow = Selectable<ChaincodeProposalsTable>;
type Patch = Partial<Omit<ChaincodeProposalsTable, "id">>;

/** SQL for chaincode-definition proposals (made here or received). */
export function createChaincodeProposalsRepo(db: DB) {
  return {
    insert: (row: Insertable<ChaincodeProposalsTable>): Promise<ChaincodeProposalRow> =>
      db.insertInto("chaincode_proposals").values(row).returningAll().executeTakeFirstOrThrow(),
    /** A received proposal; undefined when this connection already delivered that slug. */
    async insertReceived(row: Insertable<ChaincodeProposalsTable>): Promise<ChaincodeProposalRow | undefined> {
      try {
        return await db.insertInto("chaincode_proposals").values(row).returningAll().executeTakeFirstOrThrow();
      } catch (err) {
        if (isUniqueViolation(err)) return undefined;
        throw err;
      }
    },
    byId: (id: number): Promise<ChaincodeProposalRow | undefined> =>
      db.selectFrom("chaincode_proposals").selectAll().where("id", "=", id).executeTakeFirst(),
    byOrigin: (connectionId: number, defId: string): Promise<ChaincodeProposalRow | undefined> =>
      db
        .selectFrom("chaincode_proposals")
        .selectAll()
        .where("connection_id", "=", connectionId)
        .where("def_id", "=", defId)
        .executeTakeFirst(),
    list: (networkId?: number): Promise<ChaincodeProposalRow[]> => {
      let q = db.selectFrom("chaincode_proposals").selectAll();
      if (networkId !== undefined) q = q.where("network_id", "=", networkId);
      return q.orderBy("created_at", "desc").orderBy("id", "desc").execute();
    },
    update: (id: number, patch: Patch): Promise<ChaincodeProposalRow | undefined> =>
      db.updateTable("chaincode_proposals").set(patch).where("id", "=", id).returningAll().executeTakeFirst(),
    delete: async (id: number): Promise<void> => {
      await db.deleteFrom("chaincode_proposals").where("id", "=", id).execute();
    },
    /**
     * Moves a proposal to `to` only while its status is one of `from`: the update is the lock, so of
     * two concurrent accepts exactly one wins on both databases.
     */
    async claim(id: number, from: string[], to: string, now: string): Promise<boolean> {
      const r = await db
        .updateTable("chaincode_proposals")
        .set({ status: to, error: "", updated_at: now })
        .where("id", "=", id)
        .where("status", "in", from)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
  };
}

export type ChaincodeProposalsRepo = ReturnType<typeof createChaincodeProposalsRepo>;
