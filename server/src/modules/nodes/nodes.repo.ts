import type { Insertable, Selectable, Transaction, Updateable } from "kysely";
import type { DB } from "../../db/db.js";
import type { Database, NodeEventsTable, NodeHealthChecksTable, NodesTable } from "../../db/types.js";

export type NodeRow = Selectable<NodesTable>;
export type NodeEventRow = Selectable<NodeEventsTable>;
export type HealthCheckRow = Selectable<NodeHealthChecksTable>;

export interface NodeFilter {
  name?: string | undefined;
  slug?: string | undefined;
  status?: string | undefined;
  platform?: string | undefined;
  nodeType?: string | undefined;
  networkId?: number | undefined;
  organizationId?: number | undefined;
}

const likeEscape = (s: string): string => s.replace(/[%_\\]/g, (c) => `\\${c}`);

/** SQL for nodes, their events and health checks. */
export function createNodesRepo(db: DB) {
  const q = (trx?: Transaction<Database>) => trx ?? db;
  return {
    async insert(row: Insertable<NodesTable>, trx?: Transaction<Database>): Promise<NodeRow> {
      return q(trx).insertInto("nodes").values(row).returningAll().executeTakeFirstOrThrow();
    },
    async update(id: number, patch: Updateable<NodesTable>, trx?: Transaction<Database>): Promise<void> {
      await q(trx).updateTable("nodes").set(patch).where("id", "=", id).execute();
    },
    async delete(id: number, trx?: Transaction<Database>): Promise<void> {
      await q(trx).deleteFrom("node_events").where("node_id", "=", id).execute();
      await q(trx).deleteFrom("node_health_checks").where("node_id", "=", id).execute();
      await q(trx).deleteFrom("nodes").where("id", "=", id).execute();
    },
    async byId(id: number): Promise<NodeRow | undefined> {
      return db.selectFrom("nodes").selectAll().where("id", "=", id).executeTakeFirst();
    },
    async bySlug(slug: string): Promise<NodeRow | undefined> {
      return db.selectFrom("nodes").selectAll().where("slug", "=", slug).executeTakeFirst();
    },
    async byName(name: string): Promise<NodeRow | undefined> {
      return db.selectFrom("nodes").selectAll().where("name", "=", name).executeTakeFirst();
    },
    async slugsLike(prefix: string): Promise<string[]> {
      const rows = await db
        .selectFrom("nodes")
        .select("slug")
        .where("slug", "like", `${likeEscape(prefix)}%`)
        .execute();
      return rows.map((r) => r.slug);
    },
    async all(): Promise<NodeRow[]> {
      return db.selectFrom("nodes").selectAll().orderBy("id").execute();
    },
    /** Nodes with an outage going on (see nodes.runtime.ts). */
    async down(): Promise<NodeRow[]> {
      return db.selectFrom("nodes").selectAll().where("down_since", "is not", null).orderBy("id").execute();
    },
    async withStatus(statuses: string[]): Promise<NodeRow[]> {
      return db.selectFrom("nodes").selectAll().where("status", "in", statuses).orderBy("id").execute();
    },
    async page(filter: NodeFilter, limit: number, offset: number): Promise<{ rows: NodeRow[]; total: number }> {
      let query = db.selectFrom("nodes");
      if (filter.name) query = query.where("name", "like", `%${likeEscape(filter.name)}%`);
      if (filter.slug) query = query.where("slug", "=", filter.slug);
      if (filter.status) query = query.where("status", "=", filter.status);
      if (filter.platform) query = query.where("platform", "=", filter.platform);
      if (filter.nodeType) query = query.where("node_type", "=", filter.nodeType);
      if (filter.networkId !== undefined) query = query.where("network_id", "=", filter.networkId);
      if (filter.organizationId !== undefined) query = query.where("organization_id", "=", filter.organizationId);
      const rows = await query.selectAll().orderBy("id").limit(limit).offset(offset).execute();
      const c = await query.select((eb) => eb.fn.countAll<string | number>().as("n")).executeTakeFirstOrThrow();
      return { rows, total: Number(c.n) };
    },
    /** The node that holds a key (its signing/node key or TLS key), if any. */
    async userOfKey(keyId: number): Promise<NodeRow | undefined> {
      return db
        .selectFrom("nodes")
        .selectAll()
        .where((eb) => eb.or([eb("key_id", "=", keyId), eb("tls_key_id", "=", keyId)]))
        .executeTakeFirst();
    },

    async insertEvent(row: Insertable<NodeEventsTable>): Promise<void> {
      await db.insertInto("node_events").values(row).execute();
    },
    async events(nodeId: number, limit: number, offset: number): Promise<{ rows: NodeEventRow[]; total: number }> {
      const base = db.selectFrom("node_events").where("node_id", "=", nodeId);
      const rows = await base.selectAll().orderBy("id", "desc").limit(limit).offset(offset).execute();
      const c = await base.select((eb) => eb.fn.countAll<string | number>().as("n")).executeTakeFirstOrThrow();
      return { rows, total: Number(c.n) };
    },

    async insertHealth(row: Insertable<NodeHealthChecksTable>, keep: number): Promise<void> {
      await db.insertInto("node_health_checks").values(row).execute();
      // Retention: drop everything older than the newest `keep` rows of this node.
      const cutoff = await db
        .selectFrom("node_health_checks")
        .select("id")
        .where("node_id", "=", row.node_id)
        .orderBy("id", "desc")
        .offset(keep)
        .limit(1)
        .executeTakeFirst();
      if (cutoff) {
        await db
          .deleteFrom("node_health_checks")
          .where("node_id", "=", row.node_id)
          .where("id", "<=", cutoff.id)
          .execute();
      }
    },
    async lastHealth(nodeId: number): Promise<HealthCheckRow | undefined> {
      return db
        .selectFrom("node_health_checks")
        .selectAll()
        .where("node_id", "=", nodeId)
        .orderBy("id", "desc")
        .limit(1)
        .executeTakeFirst();
    },
    async healthBetween(nodeId: number, from: string, to: string): Promise<HealthCheckRow[]> {
      return db
        .selectFrom("node_health_checks")
        .selectAll()
        .where("node_id", "=", nodeId)
        .where("checked_at", ">=", from)
        .where("checked_at", "<=", to)
        .orderBy("id")
        .limit(10_000)
        .execute();
    },
  };
}

export type NodesRepo = ReturnType<typeof createNodesRepo>;
