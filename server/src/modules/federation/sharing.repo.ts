import type { Insertable, Selectable } from "kysely";
import type { DB } from "../../db/db.js";
import type { Dialect } from "../../db/migrations/helpers.js";
import { isUniqueViolation } from "../../db/unique-violation.js";
import type { FederationSharesTable } from "../../db/types.js";

export type ShareRow = Selectable<FederationSharesTable>;
export type ShareKind = "fabric_network" | "besu_network" | "key" | "chaincode";
const NETWORK_KINDS: ShareKind[] = ["fabric_network", "besu_network"];

/** How long an accept may hold a share as "accepting" before another accept may take it over (a crash). */
const ACCEPT_LEASE_MS = 10 * 60_000;

/** SQL for shares sent and received (federation_shares) and the enode URLs of a Besu network's nodes. */
export function createSharingRepo(db: DB, dialect: Dialect) {
  return {
    async insert(row: Insertable<FederationSharesTable>): Promise<ShareRow> {
      return db.insertInto("federation_shares").values(row).returningAll().executeTakeFirstOrThrow();
    },
    /** Inserts a received share; undefined when this sender already delivered that share id. */
    async insertReceived(row: Insertable<FederationSharesTable>): Promise<ShareRow | undefined> {
      try {
        return await db.insertInto("federation_shares").values(row).returningAll().executeTakeFirstOrThrow();
      } catch (err) {
        if (isUniqueViolation(err)) return undefined;
        throw err;
      }
    },
    receivedByRemote: (connectionId: number, remoteShareId: string): Promise<ShareRow | undefined> =>
      db
        .selectFrom("federation_shares")
        .selectAll()
        .where("connection_id", "=", connectionId)
        .where("remote_share_id", "=", remoteShareId)
        .where("direction", "=", "received")
        .executeTakeFirst(),
    byId: (id: string): Promise<ShareRow | undefined> =>
      db.selectFrom("federation_shares").selectAll().where("id", "=", id).executeTakeFirst(),
    /** Network shares, newest first. */
    listNetworks: (direction?: "sent" | "received"): Promise<ShareRow[]> => {
      let q = db.selectFrom("federation_shares").selectAll().where("kind", "in", NETWORK_KINDS);
      if (direction) q = q.where("direction", "=", direction);
      return q.orderBy("created_at", "desc").orderBy("id").execute();
    },
    /** Shares of one kind (chaincode definitions), newest first, optionally one direction. */
    listKind: (kind: ShareKind, direction?: "sent" | "received"): Promise<ShareRow[]> => {
      let q = db.selectFrom("federation_shares").selectAll().where("kind", "=", kind);
      if (direction) q = q.where("direction", "=", direction);
      return q.orderBy("created_at", "desc").orderBy("id").execute();
    },
    /** A chaincode of this console with its channel's name (what a chaincode share names). */
    chaincode: (id: number): Promise<{ id: number; name: string; channel: string } | undefined> =>
      db
        .selectFrom("fabric_chaincodes as c")
        .innerJoin("networks as n", "n.id", "c.network_id")
        .select(["c.id as id", "c.name as name", "n.name as channel"])
        .where("c.id", "=", id)
        .executeTakeFirst(),
    /** Received key shares, newest first, with the expiry filter applied in SQL (ISO text compares in order). */
    async listReceivedKeys(o: {
      now: string;
      expired?: boolean | undefined;
      limit: number;
      offset: number;
    }): Promise<{ rows: ShareRow[]; total: number }> {
      let q = db.selectFrom("federation_shares").where("kind", "=", "key").where("direction", "=", "received");
      if (o.expired === true) q = q.where("expires_at", "is not", null).where("expires_at", "<=", o.now);
      if (o.expired === false) q = q.where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", o.now)]));
      const total = await q.select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow();
      const rows = await q
        .selectAll()
        .orderBy("created_at", "desc")
        .orderBy("id")
        .limit(o.limit)
        .offset(o.offset)
        .execute();
      return { rows, total: Number(total.n) };
    },
    /**
     * Takes a pending received share for an accept in one conditional UPDATE, so of two concurrent
     * accepts one wins; a share left "accepting" by a crash is taken over after the lease.
     */
    async claimForAccept(id: string, now: Date): Promise<boolean> {
      const iso = now.toISOString();
      const stale = new Date(now.getTime() - ACCEPT_LEASE_MS).toISOString();
      const r = await db
        .updateTable("federation_shares")
        .set({ status: "accepting", updated_at: iso })
        .where("id", "=", id)
        .where("direction", "=", "received")
        .where((eb) =>
          eb.or([eb("status", "=", "pending"), eb.and([eb("status", "=", "accepting"), eb("updated_at", "<", stale)])]),
        )
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    /** Moves a share from one status to another; false when it was not in `from` any more. */
    async transition(
      id: string,
      from: string,
      patch: { status: string; error?: string | null; local_network_id?: number | null },
      now: string,
    ): Promise<boolean> {
      const r = await db
        .updateTable("federation_shares")
        .set({ ...patch, updated_at: now })
        .where("id", "=", id)
        .where("status", "=", from)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    /**
     * Read-modify-write of a share's data and status in one transaction (two recipients may
     * answer at once); `change` returns the new values, or undefined to leave the row alone.
     */
    async updateWith(
      id: string,
      change: (row: ShareRow) => { status: string; data_json: string } | undefined,
      now: string,
    ): Promise<ShareRow | undefined> {
      return db.transaction().execute(async (trx) => {
        // FOR UPDATE on PostgreSQL; SQLite serialises writers anyway.
        let q = trx.selectFrom("federation_shares").selectAll().where("id", "=", id);
        if (dialect === "postgres") q = q.forUpdate();
        const row = await q.executeTakeFirst();
        const patch = row && change(row);
        if (!row || !patch) return row;
        await trx
          .updateTable("federation_shares")
          .set({ ...patch, updated_at: now })
          .where("id", "=", id)
          .execute();
        return { ...row, ...patch };
      });
    },
    /** Deletes a share unless an accept holds it; false when nothing was deleted. */
    async remove(id: string): Promise<boolean> {
      const r = await db
        .deleteFrom("federation_shares")
        .where("id", "=", id)
        .where("status", "!=", "accepting")
        .executeTakeFirst();
      return Number(r.numDeletedRows) === 1;
    },
    /** The deployments of a network's nodes on this console (Besu: they carry the enode URL). */
    nodeDeployments: async (networkId: number): Promise<string[]> =>
      (
        await db
          .selectFrom("nodes")
          .select("deployment")
          .where("network_id", "=", networkId)
          .where("platform", "=", "BESU")
          .orderBy("id")
          .execute()
      ).map((r) => r.deployment),
  };
}

export type SharingRepo = ReturnType<typeof createSharingRepo>;
