import type { Insertable, Selectable, Transaction } from "kysely";
import type { DB } from "../../db/db.js";
import { isUniqueViolation } from "../../db/unique-violation.js";
import type {
  Database,
  FederationConnectionsTable,
  FederationIdentityTable,
  FederationInvitationsTable,
} from "../../db/types.js";

export type IdentityRow = Selectable<FederationIdentityTable>;
export type InvitationRow = Selectable<FederationInvitationsTable>;
export type ConnectionRow = Selectable<FederationConnectionsTable>;
export type ConnectionStatus = "connected" | "unreachable" | "revoked";

/** SQL for the identity, invitations, connections and seen message nonces. */
export function createFederationRepo(db: DB) {
  const q = (trx?: Transaction<Database>) => trx ?? db;
  return {
    transaction: <T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> => db.transaction().execute(fn),

    identity: (): Promise<IdentityRow | undefined> =>
      db.selectFrom("federation_identity").selectAll().where("id", "=", 1).executeTakeFirst(),
    /** Inserts the identity (id 1); false when another request inserted it first. */
    async insertIdentity(row: Omit<Insertable<FederationIdentityTable>, "id">): Promise<boolean> {
      try {
        await db
          .insertInto("federation_identity")
          .values({ ...row, id: 1 })
          .execute();
        return true;
      } catch (err) {
        if (isUniqueViolation(err)) return false;
        throw err;
      }
    },

    async insertInvitation(row: Insertable<FederationInvitationsTable>): Promise<void> {
      await db.insertInto("federation_invitations").values(row).execute();
    },
    invitationByNonce: (nonce: string, trx?: Transaction<Database>): Promise<InvitationRow | undefined> =>
      q(trx).selectFrom("federation_invitations").selectAll().where("nonce", "=", nonce).executeTakeFirst(),
    /**
     * Marks an invitation used in one conditional UPDATE: only an unused, unexpired invitation
     * matches, so of concurrent handshakes exactly one sees a row changed (on both databases).
     */
    async consumeInvitation(nonce: string, nodeId: string, now: string, trx?: Transaction<Database>): Promise<boolean> {
      const r = await q(trx)
        .updateTable("federation_invitations")
        .set({ used_at: now, used_by_node_id: nodeId })
        .where("nonce", "=", nonce)
        .where("used_at", "is", null)
        .where("expires_at", ">", now)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    listConnections: (): Promise<ConnectionRow[]> =>
      db.selectFrom("federation_connections").selectAll().orderBy("id").execute(),
    connection: (nodeId: string, trx?: Transaction<Database>): Promise<ConnectionRow | undefined> =>
      q(trx).selectFrom("federation_connections").selectAll().where("node_id", "=", nodeId).executeTakeFirst(),
    connectionById: (id: number): Promise<ConnectionRow | undefined> =>
      db.selectFrom("federation_connections").selectAll().where("id", "=", id).executeTakeFirst(),
    /** Grants (or withdraws) the other console read access to this console's node metrics. */
    async setMetricsFederation(nodeId: string, on: boolean, now: string): Promise<void> {
      await db
        .updateTable("federation_connections")
        .set({ metrics_federation: on ? 1 : 0, updated_at: now })
        .where("node_id", "=", nodeId)
        .execute();
    },
    /** Registers a connected console, or reconnects a known one (a new invitation was accepted). */
    async upsertConnection(
      row: { node_id: string; endpoint: string; public_key: string; now: string },
      trx?: Transaction<Database>,
    ): Promise<ConnectionRow> {
      const values = {
        endpoint: row.endpoint,
        public_key: row.public_key,
        status: "connected",
        last_seen_at: row.now,
        last_error: null,
        revoked_at: null,
        updated_at: row.now,
      };
      return q(trx)
        .insertInto("federation_connections")
        .values({ ...values, node_id: row.node_id, metrics_federation: 0, created_at: row.now })
        .onConflict((oc) => oc.column("node_id").doUpdateSet(values))
        .returningAll()
        .executeTakeFirstOrThrow();
    },
    /** Records the outcome of talking to a console; a revoked connection stays revoked. */
    async setReachability(nodeId: string, ok: boolean, now: string, error: string | null): Promise<void> {
      await db
        .updateTable("federation_connections")
        .set(
          ok
            ? { status: "connected", last_seen_at: now, last_error: null, updated_at: now }
            : { status: "unreachable", last_error: error, updated_at: now },
        )
        .where("node_id", "=", nodeId)
        .where("status", "!=", "revoked")
        .execute();
    },
    /**
     * Marks a connection revoked; true when it was not revoked before. The metrics grant goes with it:
     * reconnecting through a new invitation does not silently grant again.
     */
    async revoke(nodeId: string, now: string, reason: string): Promise<boolean> {
      const r = await db
        .updateTable("federation_connections")
        .set({ status: "revoked", revoked_at: now, last_error: reason, metrics_federation: 0, updated_at: now })
        .where("node_id", "=", nodeId)
        .where("status", "!=", "revoked")
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    /** Records a message nonce; false when this sender already used it (a replay). */
    async recordNonce(nodeId: string, nonce: string, now: string): Promise<boolean> {
      try {
        await db.insertInto("federation_seen_nonces").values({ node_id: nodeId, nonce, seen_at: now }).execute();
        return true;
      } catch (err) {
        if (isUniqueViolation(err)) return false;
        throw err;
      }
    },
    /** Forgets nonces seen before `before` (their timestamps are outside the window by then). */
    async pruneNonces(before: string): Promise<void> {
      await db.deleteFrom("federation_seen_nonces").where("seen_at", "<", before).execute();
    },
  };
}

export type FederationRepo = ReturnType<typeof createFederationRepo>;
