import type { Insertable, Selectable, Updateable } from "kysely";
import type { DB } from "../../db/db.js";
import type { AlertStatesTable } from "../../db/types.js";

export type AlertStateRow = Selectable<AlertStatesTable>;

/** A certificate the console holds, with what it belongs to (for the expiry rule). */
export interface CertificateRow {
  key_id: number;
  key_name: string;
  certificate: string;
  expires_at: string | null;
  is_ca: number;
}

/** A Fabric node as the health rules see it: status and where its operations endpoint is. */
export interface FabricNodeRow {
  id: number;
  name: string;
  node_type: string;
  status: string;
  deployment: string;
  key_id: number | null;
  tls_key_id: number | null;
}

/** A node's membership of a Fabric channel. */
export interface ChannelMemberRow {
  network_id: number;
  channel_name: string;
  node_id: number;
  role: string;
  /** The channel's creation parameters (JSON): its consensus type. */
  network_config: string;
}

/** SQL of the alert engine's state and of what its rules read (certificates, Fabric channels). */
export function createAlertsRepo(db: DB) {
  return {
    states: {
      forRule: (ruleId: string): Promise<AlertStateRow[]> =>
        db.selectFrom("alert_states").selectAll().where("rule_id", "=", ruleId).orderBy("id").execute(),
      all: (): Promise<AlertStateRow[]> => db.selectFrom("alert_states").selectAll().orderBy("id").execute(),
      async insert(row: Insertable<AlertStatesTable>): Promise<void> {
        await db.insertInto("alert_states").values(row).execute();
      },
      async update(id: number, patch: Updateable<AlertStatesTable>): Promise<void> {
        await db.updateTable("alert_states").set(patch).where("id", "=", id).execute();
      },
      async delete(id: number): Promise<void> {
        await db.deleteFrom("alert_states").where("id", "=", id).execute();
      },
    },
    /** Every active key that has a certificate. */
    certificates: (): Promise<CertificateRow[]> =>
      db
        .selectFrom("keys")
        .select(["id as key_id", "name as key_name", "certificate", "expires_at", "is_ca"])
        .where("certificate", "is not", null)
        .where("status", "!=", "pending")
        .orderBy("id")
        .execute() as Promise<CertificateRow[]>,
    /** Which organization each key belongs to, and in what role (ca, admin, client, peer, orderer). */
    organizationKeys: (): Promise<Array<{ organization_id: number; key_id: number; role: string }>> =>
      db.selectFrom("organization_keys").select(["organization_id", "key_id", "role"]).execute(),
    organizations: (): Promise<Array<{ id: number; name: string; msp_id: string }>> =>
      db.selectFrom("fabric_organizations").select(["id", "name", "msp_id"]).execute(),
    /** Nodes in an outage the node runtime is tracking (crash or ERROR, not a planned stop). */
    downNodes: (): Promise<
      Array<{ id: number; name: string; down_since: string; down_reason: string | null; down_alerted: number }>
    > =>
      db
        .selectFrom("nodes")
        .select(["id", "name", "down_since", "down_reason", "down_alerted"])
        .where("down_since", "is not", null)
        .orderBy("id")
        .execute() as Promise<
        Array<{ id: number; name: string; down_since: string; down_reason: string | null; down_alerted: number }>
      >,
    fabricNodes: (): Promise<FabricNodeRow[]> =>
      db
        .selectFrom("nodes")
        .select(["id", "name", "node_type", "status", "deployment", "key_id", "tls_key_id"])
        .where("platform", "=", "FABRIC")
        .orderBy("id")
        .execute(),
    /** Joined members of every Fabric channel. */
    channelMembers: (): Promise<ChannelMemberRow[]> =>
      db
        .selectFrom("network_nodes as nn")
        .innerJoin("networks as n", "n.id", "nn.network_id")
        .select(["nn.network_id", "n.name as channel_name", "nn.node_id", "nn.role", "n.config as network_config"])
        .where("n.platform", "=", "FABRIC")
        .where("nn.status", "=", "joined")
        .orderBy("nn.id")
        .execute(),
  };
}

export type AlertsRepo = ReturnType<typeof createAlertsRepo>;
