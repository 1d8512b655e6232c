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
    async page(limit: number, offset: number, mspId?: string): Promise<{ rows: OrganizationRow[]; total: number }> {
      let query = orgs();
      let count = db.selectFrom("fabric_organizations").select((eb) => eb.fn.countAll<string | number>().as("n"));
      if (mspId) {
        query = query.where("fabric_organizations.msp_id", "=", mspId);
        count = count.where("msp_id", "=", mspId);
      }
      const rows = await query.orderBy("fabric_organizations.id").limit(limit).offset(offset).execute();
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
    async update(id: number, patch: Updateable<FabricOrganizationsTable>, trx?: Transaction<Database>): Promise<void> {
      await q(trx).updateTable("fabric_organizations").set(patch).where("id", "=", id).execute();
    },
    async delete(id: number, trx?: Transaction<Database>): Promise<void> {
      await q(trx).deleteFrom("fabric_organizations").where("id", "=", id).execute();
    },
    async insertKey(row: Insertable<OrganizationKeysTable>, trx?: Transaction<Database>): Promise<void> {
      await q(trx).insertInto("organization_keys").values(row).execute();
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
