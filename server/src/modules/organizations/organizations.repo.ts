import type { Insertable, Selectable, Transaction, Updateable } from "kysely";
import type { DB } from "../../db/db.js";
import type {
  Database,
  FabricOrganizationsTable,
  OrganizationKeysTable,
  OrganizationRevokedCertificatesTable,
} from "../../db/types.js";

export type OrganizationRow = Selectable<FabricOrganizationsTable> & { provider_name: string };
export type OrganizationKeyRow = Selectable<OrganizationKeysTable>;
export type RevokedRow = Selectable<OrganizationRevokedCertificatesTable>;
/** One organization of a list page: what the list answers, with its CA keys' ids found (null: missing). */
export interface OrganizationListRow {
  id: number;
  msp_id: string;
  description: string | null;
  provider_id: number;
  provider_name: string;
  sign_key_id: number;
  sign_found: number | null;
  sign_certificate: string | null;
  sign_public_key: string | null;
  tls_root_key_id: number;
  tls_found: number | null;
  tls_certificate: string | null;
  tls_public_key: string | null;
  admin_sign_key_id: number | null;
  admin_tls_key_id: number | null;
  client_sign_key_id: number | null;
  created_at: string;
  updated_at: string;
}

/** SQL for Fabric organizations, their keys and revocations. */
/**
 * The organization a key belongs to: its organization_keys link, or one of the org's own identity
 * columns (sign CA, admin, client).
 */
export async function organizationOfKey(db: DB, keyId: number): Promise<number | undefined> {
  const link = await db
    .selectFrom("organization_keys")
    .select("organization_id")
    .where("key_id", "=", keyId)
    .executeTakeFirst();
  if (link) return link.organization_id;
  const org = await db
    .selectFrom("fabric_organizations")
    .select("id")
    .where((eb) =>
      eb.or([eb("admin_sign_key_id", "=", keyId), eb("client_sign_key_id", "=", keyId), eb("sign_key_id", "=", keyId)]),
    )
    .executeTakeFirst();
  return org?.id;
}

export function createOrganizationsRepo(db: DB) {
  const q = (trx?: Transaction<Database>) => trx ?? db;
  const orgs = (trx?: Transaction<Database>) =>
    q(trx)
      .selectFrom("fabric_organizations")
      .innerJoin("key_providers", "key_providers.id", "fabric_organizations.provider_id")
      .selectAll("fabric_organizations")
      .select("key_providers.name as provider_name");
  return {
    /**
     * A page as the list answers it, in one statement: each organization with its provider's name and
     * its two CAs' certificate and public key, and nothing else. Reading whole key rows (encrypted
     * private keys included) for the page was most of a 100-row page's database time.
     */
    async listPage(
      limit: number,
      offset: number,
      mspId?: string,
    ): Promise<{ rows: OrganizationListRow[]; total: number }> {
      let query = db
        .selectFrom("fabric_organizations as o")
        .innerJoin("key_providers as p", "p.id", "o.provider_id")
        .leftJoin("keys as s", "s.id", "o.sign_key_id")
        .leftJoin("keys as t", "t.id", "o.tls_root_key_id")
        .select([
          "o.id",
          "o.msp_id",
          "o.description",
          "o.provider_id",
          "p.name as provider_name",
          "o.sign_key_id",
          "s.id as sign_found",
          "s.certificate as sign_certificate",
          "s.public_key as sign_public_key",
          "o.tls_root_key_id",
          "t.id as tls_found",
          "t.certificate as tls_certificate",
          "t.public_key as tls_public_key",
          "o.admin_sign_key_id",
          "o.admin_tls_key_id",
          "o.client_sign_key_id",
          "o.created_at",
          "o.updated_at",
        ]);
      let count = db.selectFrom("fabric_organizations").select((eb) => eb.fn.countAll<string | number>().as("n"));
      if (mspId) {
        query = query.where("o.msp_id", "=", mspId);
        count = count.where("msp_id", "=", mspId);
      }
      const rows = await query.orderBy("o.id").limit(limit).offset(offset).execute();
      return { rows, total: Number((await count.executeTakeFirstOrThrow()).n) };
    },
    async byId(id: number, trx?: Transaction<Database>): Promise<OrganizationRow | undefined> {
      return orgs(trx).where("fabric_organizations.id", "=", id).executeTakeFirst();
    },
    async byMspId(mspId: string, trx?: Transaction<Database>): Promise<OrganizationRow | undefined> {
      return orgs(trx).where("fabric_organizations.msp_id", "=", mspId).executeTakeFirst();
    },
    async insert(row: Insertable<FabricOrganizationsTable>, trx?: Transaction<Database>): Promise<number> {
      const r = await q(trx).insertInto("fabric_organizations").values(row).returning("id").executeTakeFirstOrThrow();
      return r.id;
    },
    /** Inserts an organization and answers its row as byId would (with the provider's name, which the caller knows). */
    async insertRow(
      row: Insertable<FabricOrganizationsTable>,
      providerName: string,
      trx?: Transaction<Database>,
    ): Promise<OrganizationRow> {
      const r = await q(trx).insertInto("fabric_organizations").values(row).returningAll().executeTakeFirstOrThrow();
      return { ...r, provider_name: providerName };
    },
    async update(id: number, patch: Updateable<FabricOrganizationsTable>, trx?: Transaction<Database>): Promise<void> {
      await q(trx).updateTable("fabric_organizations").set(patch).where("id", "=", id).execute();
    },
    async delete(id: number, trx?: Transaction<Database>): Promise<void> {
      await q(trx).deleteFrom("fabric_organizations").where("id", "=", id).execute();
    },
    async insertKey(row: Insertable<OrganizationKeysTable>, trx?: Transaction<Database>): Promise<void> {
      await q(trx).insertInto("organization_keys").values(row).execute();
    },
    /** Several links in one statement, ids in the order given. */
    async insertKeys(rows: Insertable<OrganizationKeysTable>[], trx?: Transaction<Database>): Promise<void> {
      if (rows.length > 0) await q(trx).insertInto("organization_keys").values(rows).execute();
    },
    async keys(orgId: number, trx?: Transaction<Database>): Promise<OrganizationKeyRow[]> {
      return q(trx)
        .selectFrom("organization_keys")
        .selectAll()
        .where("organization_id", "=", orgId)
        .orderBy("id")
        .execute();
    },
    async keyLink(orgId: number, keyId: number): Promise<OrganizationKeyRow | undefined> {
      return db
        .selectFrom("organization_keys")
        .selectAll()
        .where("organization_id", "=", orgId)
        .where("key_id", "=", keyId)
        .executeTakeFirst();
    },
    async deleteKeyLink(orgId: number, keyId: number, trx?: Transaction<Database>): Promise<void> {
      await q(trx)
        .deleteFrom("organization_keys")
        .where("organization_id", "=", orgId)
        .where("key_id", "=", keyId)
        .execute();
    },
    /** The MSP id of the organization that uses a key, if any. */
    async userOfKey(keyId: number): Promise<string | undefined> {
      const r = await db
        .selectFrom("organization_keys")
        .innerJoin("fabric_organizations", "fabric_organizations.id", "organization_keys.organization_id")
        .select("fabric_organizations.msp_id")
        .where("organization_keys.key_id", "=", keyId)
        .executeTakeFirst();
      return r?.msp_id;
    },
    async revoked(orgId: number, caType?: string): Promise<RevokedRow[]> {
      let query = db.selectFrom("organization_revoked_certificates").selectAll().where("organization_id", "=", orgId);
      if (caType) query = query.where("ca_type", "=", caType);
      return query.orderBy("id").execute();
    },
    async insertRevoked(row: Insertable<OrganizationRevokedCertificatesTable>): Promise<void> {
      await db.insertInto("organization_revoked_certificates").values(row).execute();
    },
    async deleteRevoked(orgId: number, serial: string): Promise<number> {
      const r = await db
        .deleteFrom("organization_revoked_certificates")
        .where("organization_id", "=", orgId)
        .where("serial_number", "=", serial)
        .executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    /** Takes the next CRL number for an organization (monotonic per organization). */
    async nextCrlNumber(orgId: number, at: string): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom("fabric_organizations")
          .select("crl_number")
          .where("id", "=", orgId)
          .executeTakeFirstOrThrow();
        const next = row.crl_number + 1;
        await trx
          .updateTable("fabric_organizations")
          .set({ crl_number: next, crl_last_update: at })
          .where("id", "=", orgId)
          .execute();
        return next;
      });
    },
    transaction<T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
      return db.transaction().execute(fn);
    },
  };
}

export type OrganizationsRepo = ReturnType<typeof createOrganizationsRepo>;
