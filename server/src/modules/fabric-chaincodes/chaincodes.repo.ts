import type { Insertable, Selectable, Updateable } from "kysely";
import type { DB } from "../../db/db.js";
import { isUniqueViolation } from "../../db/unique-violation.js";
import type {
  FabricChaincodeDefinitionsTable,
  FabricChaincodeEventsTable,
  FabricChaincodesTable,
} from "../../db/types.js";

export type ChaincodeRow = Selectable<FabricChaincodesTable> & { network_name: string; network_platform: string };
export type DefinitionRow = Selectable<FabricChaincodeDefinitionsTable>;
export type EventRow = Selectable<FabricChaincodeEventsTable>;

/** A definition committed outside this console, to record (see `adopt`). */
export interface AdoptInput {
  networkId: number;
  name: string;
  /** The definition's row without its chaincode; `sequence` is the committed one. */
  definition: Omit<Insertable<FabricChaincodeDefinitionsTable>, "chaincode_id">;
  /** Timeline entries of the new definition. */
  events: { event_type: string; event_data: string; created_at: string }[];
}

/** What `adopt` found or wrote. */
export interface AdoptResult {
  chaincodeId: number;
  definitionId: number;
  /** True when this call wrote the definition, false when one was there at that sequence. */
  adopted: boolean;
  /** The definition found at that sequence (its origin says whether the console made it). */
  origin: string;
}

/** SQL for Fabric chaincodes, their definitions and timelines. */
export function createChaincodesRepo(db: DB) {
  const chaincodes = () =>
    db
      .selectFrom("fabric_chaincodes as c")
      .innerJoin("networks as n", "n.id", "c.network_id")
      .select([
        "c.id",
        "c.name",
        "c.network_id",
        "c.created_at",
        "n.name as network_name",
        "n.platform as network_platform",
      ]);
  return {
    /** Peers of an org synced from other consoles (external nodes): endpoint and TLS CA. */
    externalPeers: (mspId: string): Promise<{ external_endpoint: string; tls_ca_certificate: string }[]> =>
      db
        .selectFrom("external_fabric_nodes")
        .select(["external_endpoint", "tls_ca_certificate"])
        .where("role", "=", "peer")
        .where("msp_id", "=", mspId)
        .where("external_endpoint", "<>", "")
        .orderBy("id")
        .execute(),
    async list(networkId?: number): Promise<ChaincodeRow[]> {
      let q = chaincodes();
      if (networkId) q = q.where("c.network_id", "=", networkId);
      return q.orderBy("c.id").execute();
    },
    async byId(id: number): Promise<ChaincodeRow | undefined> {
      return chaincodes().where("c.id", "=", id).executeTakeFirst();
    },
    async insert(row: Insertable<FabricChaincodesTable>): Promise<number> {
      const r = await db.insertInto("fabric_chaincodes").values(row).returning("id").executeTakeFirstOrThrow();
      return r.id;
    },
    /**
     * Records a definition committed on the channel outside this console: the chaincode row when the
     * name is new on that channel, the definition at its committed sequence and its timeline, in one
     * transaction. A definition already at that sequence (the console's own, or an earlier
     * adoption) is left as it is and nothing is written. Concurrent calls meet the unique indexes on
     * (network, name) and (chaincode, sequence): the loser's transaction rolls back and it reads
     * what the winner wrote, so there is never a second row.
     */
    async adopt(input: AdoptInput): Promise<AdoptResult> {
      const attempt = () =>
        db.transaction().execute(async (trx): Promise<AdoptResult> => {
          const found = await trx
            .selectFrom("fabric_chaincodes")
            .select("id")
            .where("network_id", "=", input.networkId)
            .where("name", "=", input.name)
            .executeTakeFirst();
          const chaincodeId =
            found?.id ??
            (
              await trx
                .insertInto("fabric_chaincodes")
                .values({ name: input.name, network_id: input.networkId, created_at: input.definition.created_at })
                .returning("id")
                .executeTakeFirstOrThrow()
            ).id;
          const existing = await trx
            .selectFrom("fabric_chaincode_definitions")
            .select(["id", "origin"])
            .where("chaincode_id", "=", chaincodeId)
            .where("sequence", "=", input.definition.sequence)
            .executeTakeFirst();
          if (existing) return { chaincodeId, definitionId: existing.id, adopted: false, origin: existing.origin };
          const def = await trx
            .insertInto("fabric_chaincode_definitions")
            .values({ ...input.definition, chaincode_id: chaincodeId, origin: "adopted" })
            .returning("id")
            .executeTakeFirstOrThrow();
          for (const e of input.events) {
            await trx
              .insertInto("fabric_chaincode_events")
              .values({ ...e, definition_id: def.id })
              .execute();
          }
          return { chaincodeId, definitionId: def.id, adopted: true, origin: "adopted" };
        });
      for (let retry = 0; ; retry++) {
        try {
          return await attempt();
        } catch (err) {
          // Another call wrote the same chaincode or definition first: read it on the next attempt.
          if (!isUniqueViolation(err) || retry >= 2) throw err;
        }
      }
    },
    async delete(id: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const defs = trx.selectFrom("fabric_chaincode_definitions").select("id").where("chaincode_id", "=", id);
        await trx.deleteFrom("fabric_chaincode_events").where("definition_id", "in", defs).execute();
        await trx.deleteFrom("fabric_chaincode_definitions").where("chaincode_id", "=", id).execute();
        await trx.deleteFrom("fabric_chaincodes").where("id", "=", id).execute();
      });
    },
    /** Definitions of these chaincodes (one query), ordered by sequence. */
    async definitionsOf(chaincodeIds: number[]): Promise<DefinitionRow[]> {
      if (chaincodeIds.length === 0) return [];
      return db
        .selectFrom("fabric_chaincode_definitions")
        .selectAll()
        .where("chaincode_id", "in", chaincodeIds)
        .orderBy("chaincode_id")
        .orderBy("sequence")
        .execute();
    },
    async allDefinitions(): Promise<DefinitionRow[]> {
      return db.selectFrom("fabric_chaincode_definitions").selectAll().orderBy("id").execute();
    },
    async definition(id: number): Promise<DefinitionRow | undefined> {
      return db.selectFrom("fabric_chaincode_definitions").selectAll().where("id", "=", id).executeTakeFirst();
    },
    async insertDefinition(row: Insertable<FabricChaincodeDefinitionsTable>): Promise<DefinitionRow> {
      return db.insertInto("fabric_chaincode_definitions").values(row).returningAll().executeTakeFirstOrThrow();
    },
    async updateDefinition(id: number, set: Updateable<FabricChaincodeDefinitionsTable>): Promise<void> {
      await db.updateTable("fabric_chaincode_definitions").set(set).where("id", "=", id).execute();
    },
    async deleteDefinition(id: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom("fabric_chaincode_events").where("definition_id", "=", id).execute();
        await trx.deleteFrom("fabric_chaincode_definitions").where("id", "=", id).execute();
      });
    },
    async insertEvent(row: Insertable<FabricChaincodeEventsTable>): Promise<EventRow> {
      return db.insertInto("fabric_chaincode_events").values(row).returningAll().executeTakeFirstOrThrow();
    },
    /** Rewrites an event's data: a step's "started" entry completed with its outcome. */
    async updateEventData(id: number, eventData: string): Promise<void> {
      await db.updateTable("fabric_chaincode_events").set({ event_data: eventData }).where("id", "=", id).execute();
    },
    /** Entries written before `before` whose step is still "started" (the console stopped during it). */
    async startedEvents(before: string): Promise<EventRow[]> {
      return db
        .selectFrom("fabric_chaincode_events")
        .selectAll()
        .where("event_data", "like", '%"status":"started"%')
        .where("created_at", "<", before)
        .orderBy("id")
        .execute();
    },
    async events(definitionId: number): Promise<EventRow[]> {
      return db
        .selectFrom("fabric_chaincode_events")
        .selectAll()
        .where("definition_id", "=", definitionId)
        .orderBy("id")
        .execute();
    },
  };
}

export type ChaincodesRepo = ReturnType<typeof createChaincodesRepo>;
