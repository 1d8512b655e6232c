import type { Insertable, Selectable, Updateable } from "kysely";
import type { DB } from "../../db/db.js";
import type { ChaincodeProjectsTable } from "../../db/types.js";

export type ProjectRow = Selectable<ChaincodeProjectsTable> & { network_name: string; network_platform: string };

/** SQL for chaincode projects. */
export function createProjectsRepo(db: DB) {
  const projects = () =>
    db
      .selectFrom("chaincode_projects as p")
      .innerJoin("networks as n", "n.id", "p.network_id")
      .selectAll("p")
      .select(["n.name as network_name", "n.platform as network_platform"]);
  return {
    list: (): Promise<ProjectRow[]> => projects().orderBy("p.id").execute(),
    byId: (id: number): Promise<ProjectRow | undefined> => projects().where("p.id", "=", id).executeTakeFirst(),
    async insert(row: Insertable<ChaincodeProjectsTable>): Promise<number> {
      const r = await db.insertInto("chaincode_projects").values(row).returning("id").executeTakeFirstOrThrow();
      return r.id;
    },
    async update(id: number, patch: Updateable<ChaincodeProjectsTable>): Promise<void> {
      await db.updateTable("chaincode_projects").set(patch).where("id", "=", id).execute();
    },
    async delete(id: number): Promise<void> {
      await db.deleteFrom("chaincode_projects").where("id", "=", id).execute();
    },
    /** The first project on a network, for the network's usage guard. */
    async onNetwork(networkId: number): Promise<{ id: number; name: string } | undefined> {
      return db
        .selectFrom("chaincode_projects")
        .select(["id", "name"])
        .where("network_id", "=", networkId)
        .orderBy("id")
        .executeTakeFirst();
    },
  };
}

export type ProjectsRepo = ReturnType<typeof createProjectsRepo>;
