import { randomUUID } from "node:crypto";
import type { Insertable, Selectable } from "kysely";
import type { DB } from "../../db/db.js";
import type { GovernanceEventsTable, GovernanceProposalsTable, GovernanceSignaturesTable } from "../../db/types.js";
import { isUniqueViolation } from "../../db/unique-violation.js";

export type ProposalRow = Selectable<GovernanceProposalsTable>;
export type SignatureRow = Selectable<GovernanceSignaturesTable>;
export type EventRow = Selectable<GovernanceEventsTable>;

/** SQL for proposals, their signatures and their timelines. */
export function createGovernanceRepo(db: DB) {
  return {
    insert: (row: Insertable<GovernanceProposalsTable>): Promise<ProposalRow> =>
      db.insertInto("governance_proposals").values(row).returningAll().executeTakeFirstOrThrow(),
    /** A received proposal; undefined when this sender already delivered that proposal id. */
    async insertReceived(row: Insertable<GovernanceProposalsTable>): Promise<ProposalRow | undefined> {
      try {
        return await db.insertInto("governance_proposals").values(row).returningAll().executeTakeFirstOrThrow();
      } catch (err) {
        if (isUniqueViolation(err)) return undefined;
        throw err;
      }
    },
    /** The local Fabric network of a channel (received proposals are mapped to it by name). */
    fabricNetworkByName: (name: string): Promise<{ id: number } | undefined> =>
      db
        .selectFrom("networks")
        .select("id")
        .where("platform", "=", "FABRIC")
        .where("name", "=", name)
        .executeTakeFirst(),
    byId: (id: string): Promise<ProposalRow | undefined> =>
      db.selectFrom("governance_proposals").selectAll().where("id", "=", id).executeTakeFirst(),
    byRemote: (connectionId: number, remoteId: string): Promise<ProposalRow | undefined> =>
      db
        .selectFrom("governance_proposals")
        .selectAll()
        .where("connection_id", "=", connectionId)
        .where("remote_proposal_id", "=", remoteId)
        .executeTakeFirst(),
    list: (networkId?: number): Promise<ProposalRow[]> => {
      let q = db.selectFrom("governance_proposals").selectAll();
      if (networkId !== undefined) q = q.where("network_id", "=", networkId);
      return q.orderBy("created_at", "desc").orderBy("id").execute();
    },
    update: (id: string, patch: Partial<Omit<GovernanceProposalsTable, "id">>): Promise<ProposalRow | undefined> =>
      db.updateTable("governance_proposals").set(patch).where("id", "=", id).returningAll().executeTakeFirst(),
    signatures: (proposalId: string): Promise<SignatureRow[]> =>
      db.selectFrom("governance_signatures").selectAll().where("proposal_id", "=", proposalId).orderBy("id").execute(),
    signature: (proposalId: string, id: number): Promise<SignatureRow | undefined> =>
      db
        .selectFrom("governance_signatures")
        .selectAll()
        .where("proposal_id", "=", proposalId)
        .where("id", "=", id)
        .executeTakeFirst(),
    /** Stores (or replaces) an org's signature: one per org and proposal. */
    async putSignature(row: Insertable<GovernanceSignaturesTable>): Promise<SignatureRow> {
      return db.transaction().execute(async (tx) => {
        await tx
          .deleteFrom("governance_signatures")
          .where("proposal_id", "=", row.proposal_id)
          .where("msp_id", "=", row.msp_id)
          .execute();
        return tx.insertInto("governance_signatures").values(row).returningAll().executeTakeFirstOrThrow();
      });
    },
    deleteSignature: async (proposalId: string, id: number): Promise<boolean> => {
      const r = await db
        .deleteFrom("governance_signatures")
        .where("proposal_id", "=", proposalId)
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
    deleteSignatures: (proposalId: string) =>
      db.deleteFrom("governance_signatures").where("proposal_id", "=", proposalId).execute(),
    async event(proposalId: string, eventType: string, data: Record<string, unknown>): Promise<void> {
      await db
        .insertInto("governance_events")
        .values({
          id: randomUUID(),
          proposal_id: proposalId,
          event_type: eventType,
          data_json: JSON.stringify(data),
          created_at: new Date().toISOString(),
        })
        .execute();
    },
    events: (proposalId: string): Promise<EventRow[]> =>
      db
        .selectFrom("governance_events")
        .selectAll()
        .where("proposal_id", "=", proposalId)
        .orderBy("created_at")
        .orderBy("id")
        .execute(),
  };
}

export type GovernanceRepo = ReturnType<typeof createGovernanceRepo>;
