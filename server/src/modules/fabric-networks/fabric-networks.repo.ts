import type { Selectable } from "kysely";
import type { DB } from "../../db/db.js";
import { nowIso } from "../../db/db.js";
import type { NetworkNodesTable, NetworksTable } from "../../db/types.js";

export type NetworkRow = Selectable<NetworksTable>;
export type NetworkNodeRow = Selectable<NetworkNodesTable>;
export type JoinStatus = "pending" | "joined" | "failed" | "unjoined";

/** SQL for Fabric networks (rows of `networks` with platform FABRIC) and their node memberships. */
export function createFabricNetworksRepo(db: DB) {
  const fabric = () => db.selectFrom("networks").where("platform", "=", "FABRIC");
  return {
    async insert(
      row: Omit<NetworkRow, "id" | "config_block">,
      members: { node_id: number; role: "peer" | "orderer" }[],
    ): Promise<NetworkRow> {
      return db.transaction().execute(async (trx) => {
        const created = await trx.insertInto("networks").values(row).returningAll().executeTakeFirstOrThrow();
        if (members.length) {
          await trx
            .insertInto("network_nodes")
            .values(
              members.map((m) => ({
                network_id: created.id,
                node_id: m.node_id,
                role: m.role,
                status: "pending",
                error: null,
                created_at: row.created_at,
                updated_at: row.created_at,
              })),
            )
            .execute();
        }
        return created;
      });
    },
    async list(limit: number, offset: number, name?: string): Promise<{ rows: NetworkRow[]; total: number }> {
      let q = fabric();
      if (name) q = q.where("name", "like", `%${name.replace(/[%_\\]/g, (c) => `\\${c}`)}%`);
      const rows = await q.selectAll().orderBy("id", "desc").limit(limit).offset(offset).execute();
      const c = await q.select((eb) => eb.fn.countAll<string | number>().as("n")).executeTakeFirstOrThrow();
      return { rows, total: Number(c.n) };
    },
    /** Every Fabric network, oldest first. */
    async all(): Promise<NetworkRow[]> {
      return fabric().selectAll().orderBy("id").execute();
    },
    async byId(id: number): Promise<NetworkRow | undefined> {
      return fabric().selectAll().where("id", "=", id).executeTakeFirst();
    },
    async fabricByName(name: string): Promise<NetworkRow | undefined> {
      return fabric().selectAll().where("name", "=", name).executeTakeFirst();
    },
    async byName(name: string): Promise<NetworkRow | undefined> {
      return db.selectFrom("networks").selectAll().where("name", "=", name).executeTakeFirst();
    },
    async delete(id: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom("network_nodes").where("network_id", "=", id).execute();
        await trx.deleteFrom("networks").where("id", "=", id).execute();
      });
    },
    /** Every member of these networks with its join status and its node's process status (one query). */
    async memberStates(
      networkIds: number[],
    ): Promise<{ network_id: number; role: string; status: string; node_status: string | null }[]> {
      if (networkIds.length === 0) return [];
      return db
        .selectFrom("network_nodes")
        .leftJoin("nodes", "nodes.id", "network_nodes.node_id")
        .select([
          "network_nodes.network_id as network_id",
          "network_nodes.role as role",
          "network_nodes.status as status",
          "nodes.status as node_status",
        ])
        .where("network_nodes.network_id", "in", networkIds)
        .execute();
    },
    async removeMember(networkId: number, nodeId: number): Promise<void> {
      await db.deleteFrom("network_nodes").where("network_id", "=", networkId).where("node_id", "=", nodeId).execute();
    },
    async members(networkId: number): Promise<NetworkNodeRow[]> {
      return db.selectFrom("network_nodes").selectAll().where("network_id", "=", networkId).orderBy("id").execute();
    },
    async member(networkId: number, nodeId: number): Promise<NetworkNodeRow | undefined> {
      return db
        .selectFrom("network_nodes")
        .selectAll()
        .where("network_id", "=", networkId)
        .where("node_id", "=", nodeId)
        .executeTakeFirst();
    },
    async addMember(networkId: number, nodeId: number, role: "peer" | "orderer"): Promise<NetworkNodeRow> {
      const now = nowIso();
      return db
        .insertInto("network_nodes")
        .values({
          network_id: networkId,
          node_id: nodeId,
          role,
          status: "pending",
          error: null,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    },
    async setStatus(networkId: number, nodeId: number, status: JoinStatus, error: string | null): Promise<void> {
      await db
        .updateTable("network_nodes")
        .set({ status, error, updated_at: nowIso() })
        .where("network_id", "=", networkId)
        .where("node_id", "=", nodeId)
        .execute();
    },
    /** Name of a network this node belongs to (joined or not), if any. */
    async networkOfNode(nodeId: number): Promise<string | undefined> {
      const r = await db
        .selectFrom("network_nodes as m")
        .innerJoin("networks as n", "n.id", "m.network_id")
        .select("n.name")
        .where("m.node_id", "=", nodeId)
        .where("m.status", "=", "joined")
        .executeTakeFirst();
      return r?.name;
    },
    async setGenesis(id: number, genesis: string): Promise<void> {
      await db.updateTable("networks").set({ genesis, updated_at: nowIso() }).where("id", "=", id).execute();
    },
    /** The channel's newest config block as last read (reload-block), base64. */
    async setConfigBlock(id: number, block: string): Promise<void> {
      await db
        .updateTable("networks")
        .set({ config_block: block, updated_at: nowIso() })
        .where("id", "=", id)
        .execute();
    },
    async touch(id: number): Promise<void> {
      await db.updateTable("networks").set({ updated_at: nowIso() }).where("id", "=", id).execute();
    },
  };
}

export type FabricNetworksRepo = ReturnType<typeof createFabricNetworksRepo>;
