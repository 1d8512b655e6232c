import type { Insertable, Selectable, Transaction } from "kysely";
import type { DB } from "../../db/db.js";
import type {
  Database,
  ExternalBesuNodesTable,
  ExternalFabricNodesTable,
  ExternalFabricOrganizationsTable,
} from "../../db/types.js";

export type ExternalOrgRow = Selectable<ExternalFabricOrganizationsTable>;
export type ExternalFabricNodeRow = Selectable<ExternalFabricNodesTable>;
export type ExternalBesuRow = Selectable<ExternalBesuNodesTable>;
export type ExternalTable = "external_fabric_organizations" | "external_fabric_nodes" | "external_besu_nodes";

/** What a sync stores for one record; the repo adds ids, the source and the times. */
export type OrgValues = Omit<Insertable<ExternalFabricOrganizationsTable>, "id" | "created_at" | "updated_at">;
export type FabricNodeValues = Omit<Insertable<ExternalFabricNodesTable>, "id" | "created_at" | "updated_at">;
export type BesuValues = Omit<Insertable<ExternalBesuNodesTable>, "id" | "created_at" | "updated_at">;

/**
 * SQL for the records synced from other consoles, and the reads of this console's own
 * organizations and nodes that it serves to them (certificates only: no key column is selected).
 */
export function createExternalNodesRepo(db: DB) {
  /** Inserts the new, updates the known and deletes the vanished records of one source; counts. */
  async function reconcile<V extends { remote_id: number }>(
    existing: { id: number; remote_id: number }[],
    incoming: V[],
    ops: { insert(v: V): Promise<void>; update(id: number, v: V): Promise<void>; remove(ids: number[]): Promise<void> },
  ): Promise<{ added: number; deleted: number }> {
    const byRemote = new Map(existing.map((e) => [e.remote_id, e.id]));
    let added = 0;
    for (const v of incoming) {
      const id = byRemote.get(v.remote_id);
      if (id === undefined) {
        await ops.insert(v);
        added++;
      } else await ops.update(id, v);
    }
    const keep = new Set(incoming.map((v) => v.remote_id));
    const gone = existing.filter((e) => !keep.has(e.remote_id)).map((e) => e.id);
    if (gone.length) await ops.remove(gone);
    return { added, deleted: gone.length };
  }

  return {
    transaction: <T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> => db.transaction().execute(fn),

    /** This console's organizations with their sign CA and TLS CA certificates. */
    localOrganizations: () =>
      db
        .selectFrom("fabric_organizations as o")
        .innerJoin("keys as sk", "sk.id", "o.sign_key_id")
        .innerJoin("keys as tk", "tk.id", "o.tls_root_key_id")
        .select(["o.id", "o.msp_id", "o.name", "sk.certificate as sign_cert", "tk.certificate as tls_cert"])
        .orderBy("o.id")
        .execute(),
    /** This console's nodes: the deployment JSON holds their public certificates and addresses. */
    localNodes: () => db.selectFrom("nodes").select(["id", "name", "node_type", "deployment"]).orderBy("id").execute(),

    listOrganizations: (): Promise<ExternalOrgRow[]> =>
      db.selectFrom("external_fabric_organizations").selectAll().orderBy("id").execute(),
    listFabricNodes: (role: "peer" | "orderer"): Promise<ExternalFabricNodeRow[]> =>
      db.selectFrom("external_fabric_nodes").selectAll().where("role", "=", role).orderBy("id").execute(),
    listBesuNodes: (): Promise<ExternalBesuRow[]> =>
      db.selectFrom("external_besu_nodes").selectAll().orderBy("id").execute(),

    organizationById: (id: number): Promise<ExternalOrgRow | undefined> =>
      db.selectFrom("external_fabric_organizations").selectAll().where("id", "=", id).executeTakeFirst(),
    fabricNodeById: (id: number, role: "peer" | "orderer"): Promise<ExternalFabricNodeRow | undefined> =>
      db
        .selectFrom("external_fabric_nodes")
        .selectAll()
        .where("id", "=", id)
        .where("role", "=", role)
        .executeTakeFirst(),
    /** The orderers an external organization runs (same console, same MSP id). */
    orderersOf: (org: Pick<ExternalOrgRow, "source_node_id" | "msp_id">): Promise<ExternalFabricNodeRow[]> =>
      db
        .selectFrom("external_fabric_nodes")
        .selectAll()
        .where("role", "=", "orderer")
        .where("source_node_id", "=", org.source_node_id)
        .where("msp_id", "=", org.msp_id)
        .orderBy("id")
        .execute(),
    besuNodesByIds: (ids: number[]): Promise<ExternalBesuRow[]> =>
      ids.length
        ? db.selectFrom("external_besu_nodes").selectAll().where("id", "in", ids).orderBy("id").execute()
        : Promise.resolve([]),

    /** Deletes one record; false when there was none (of that role, for Fabric nodes). */
    async remove(table: ExternalTable, id: number, role?: "peer" | "orderer"): Promise<boolean> {
      const r =
        table === "external_fabric_nodes" && role
          ? await db.deleteFrom(table).where("id", "=", id).where("role", "=", role).executeTakeFirst()
          : await db.deleteFrom(table).where("id", "=", id).executeTakeFirst();
      return Number(r.numDeletedRows) === 1;
    },

    async syncOrganizations(source: string, rows: OrgValues[], now: string, trx: Transaction<Database>) {
      const t = "external_fabric_organizations" as const;
      const existing = await trx
        .selectFrom(t)
        .select(["id", "remote_id"])
        .where("source_node_id", "=", source)
        .execute();
      return reconcile(existing, rows, {
        insert: async (v) =>
          void (await trx
            .insertInto(t)
            .values({ ...v, created_at: now, updated_at: now })
            .execute()),
        update: async (id, v) =>
          void (await trx
            .updateTable(t)
            .set({ ...v, updated_at: now })
            .where("id", "=", id)
            .execute()),
        remove: async (ids) => void (await trx.deleteFrom(t).where("id", "in", ids).execute()),
      });
    },
    async syncFabricNodes(
      source: string,
      role: "peer" | "orderer",
      rows: FabricNodeValues[],
      now: string,
      trx: Transaction<Database>,
    ) {
      const t = "external_fabric_nodes" as const;
      const existing = await trx
        .selectFrom(t)
        .select(["id", "remote_id"])
        .where("source_node_id", "=", source)
        .where("role", "=", role)
        .execute();
      return reconcile(existing, rows, {
        insert: async (v) =>
          void (await trx
            .insertInto(t)
            .values({ ...v, created_at: now, updated_at: now })
            .execute()),
        update: async (id, v) =>
          void (await trx
            .updateTable(t)
            .set({ ...v, updated_at: now })
            .where("id", "=", id)
            .execute()),
        remove: async (ids) => void (await trx.deleteFrom(t).where("id", "in", ids).execute()),
      });
    },
    async syncBesuNodes(source: string, rows: BesuValues[], now: string, trx: Transaction<Database>) {
      const t = "external_besu_nodes" as const;
      const existing = await trx
        .selectFrom(t)
        .select(["id", "remote_id"])
        .where("source_node_id", "=", source)
        .execute();
      return reconcile(existing, rows, {
        insert: async (v) =>
          void (await trx
            .insertInto(t)
            .values({ ...v, created_at: now, updated_at: now })
            .execute()),
        update: async (id, v) =>
          void (await trx
            .updateTable(t)
            .set({ ...v, updated_at: now })
            .where("id", "=", id)
            .execute()),
        remove: async (ids) => void (await trx.deleteFrom(t).where("id", "in", ids).execute()),
      });
    },
  };
}

export type ExternalNodesRepo = ReturnType<typeof createExternalNodesRepo>;
