import { assertValidMspId } from "../../fabric/msp/msp-id.js";
import { nowIso } from "../../db/db.js";
import { ConflictError, NotFoundError } from "../../http/errors.js";
import { withNamedInput } from "../keys/crypto-errors.js";
import type { KeysService } from "../keys/keys.service.js";
import type { KeyWithProviderRow } from "../keys/keys.repo.js";
import type {
  CreateOrganizationBody,
  OrganizationKeyDto,
  OrganizationResponse,
  OrgKeyResponse,
} from "./organizations.schema.js";
import type { OrganizationListRow, OrganizationRow, OrganizationsRepo } from "./organizations.repo.js";
import { parseValidFor, type OrgKeys } from "./organization-pki.service.js";
import { isUniqueViolation } from "../../db/unique-violation.js";

export function toOrganizationResponse(
  row: OrganizationRow,
  sign: KeyWithProviderRow,
  tls: KeyWithProviderRow,
): OrganizationResponse {
  return {
    id: row.id,
    mspId: row.msp_id,
    description: row.description,
    providerId: row.provider_id,
    providerName: row.provider_name,
    signCertificate: sign.certificate ?? "",
    signPublicKey: sign.public_key,
    tlsCertificate: tls.certificate ?? "",
    tlsPublicKey: tls.public_key,
    adminSignKeyId: row.admin_sign_key_id,
    adminTlsKeyId: row.admin_tls_key_id,
    clientSignKeyId: row.client_sign_key_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** A list row as toOrganizationResponse answers it (same fields, same order). */
function toListedOrganization(r: OrganizationListRow): OrganizationResponse {
  if (r.sign_found === null) throw new Error(`organization key ${r.sign_key_id} is missing`);
  if (r.tls_found === null) throw new Error(`organization key ${r.tls_root_key_id} is missing`);
  return {
    id: r.id,
    mspId: r.msp_id,
    description: r.description,
    providerId: r.provider_id,
    providerName: r.provider_name,
    signCertificate: r.sign_certificate ?? "",
    signPublicKey: r.sign_public_key ?? "",
    tlsCertificate: r.tls_certificate ?? "",
    tlsPublicKey: r.tls_public_key ?? "",
    adminSignKeyId: r.admin_sign_key_id,
    adminTlsKeyId: r.admin_tls_key_id,
    clientSignKeyId: r.client_sign_key_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** A key as GET /keys/{id} and upstream's handler.KeyResponse have it (public material only). */
export function toOrgKeyResponse(k: KeyWithProviderRow): OrgKeyResponse {
  return {
    id: k.id,
    name: k.name,
    description: k.description,
    algorithm: k.algorithm,
    publicKey: k.public_key,
    certificate: k.certificate,
    status: k.status,
    createdAt: k.created_at,
    expiresAt: k.expires_at,
    lastRotatedAt: k.last_rotated_at,
    sha256Fingerprint: k.sha256_fingerprint,
    sha1Fingerprint: k.sha1_fingerprint,
    ethereumAddress: k.ethereum_address,
    signingKeyId: k.signing_key_id,
    provider: { id: k.provider_id, name: k.provider_name },
  };
}

/**
 * Fabric organizations: each is a signing CA and a TLS CA (EC P-256 with SKI), plus an admin
 * (OU admin, sign and TLS) and a client (OU client) identity, all keys of one provider.
 */
export function createOrganizationsService(deps: { repo: OrganizationsRepo; keys: KeysService; pki: OrgKeys }) {
  const { repo, keys, pki } = deps;
  /** Other modules (nodes, networks) that name what still uses an organization. */
  const usageCheckers: Array<(orgId: number) => Promise<string | null>> = [];

  async function mustGet(id: number): Promise<OrganizationRow> {
    const row = await repo.byId(id);
    if (!row) throw new NotFoundError(`organization ${id} not found`);
    return row;
  }

  /** For the keys service: names the organization using a key (its own keys and issued identities). */
  async function userOfKey(keyId: number): Promise<string | null> {
    const mspId = await repo.userOfKey(keyId);
    return mspId ? `organization "${mspId}"` : null;
  }

  async function respond(row: OrganizationRow): Promise<OrganizationResponse> {
    const [sign, tls] = await Promise.all([keys.row(row.sign_key_id), keys.row(row.tls_root_key_id)]);
    return toOrganizationResponse(row, sign, tls);
  }

  return {
    async list(limit: number, offset: number, mspId?: string) {
      // One statement for the page and its CA certificates (a 1,000-row page was once 2,001 queries).
      const { rows, total } = await repo.listPage(limit, offset, mspId);
      const items = rows.map(toListedOrganization);
      return { count: total, items, limit, offset };
    },
    async get(id: number): Promise<OrganizationResponse> {
      return respond(await mustGet(id));
    },
    async getByMspId(mspId: string): Promise<OrganizationResponse> {
      const row = await repo.byMspId(mspId);
      if (!row) throw new NotFoundError(`organization with mspId '${mspId}' not found`);
      return respond(row);
    },

    async create(body: CreateOrganizationBody): Promise<OrganizationResponse> {
      await withNamedInput(async () => assertValidMspId(body.mspId));
      if (await repo.byMspId(body.mspId))
        throw new ConflictError(`mspId: an organization with mspId '${body.mspId}' already exists`);
      const caValidForMs = parseValidFor(body.caCertValidFor, "caCertValidFor", 10 * 365 * 86_400_000);
      const certValidForMs = parseValidFor(body.certValidFor, "certValidFor", 365 * 86_400_000);
      const created: number[] = [];
      try {
        const material = await pki.createOrganizationKeys({
          mspId: body.mspId,
          providerId: body.providerId ?? null,
          subject: {
            country: body.country,
            province: body.province,
            locality: body.locality,
            streetAddress: body.streetAddress,
            postalCode: body.postalCode,
          },
          caValidForMs,
          certValidForMs,
          onCreated: (id) => created.push(id),
        });
        const ts = nowIso();
        const row = await repo.transaction(async (trx) => {
          const inserted = await repo.insertRow(
            {
              msp_id: body.mspId,
              name: body.name,
              description: body.description ?? null,
              provider_id: material.providerId,
              sign_key_id: material.signCa.id,
              tls_root_key_id: material.tlsCa.id,
              admin_sign_key_id: material.adminSign.id,
              admin_tls_key_id: material.adminTls.id,
              client_sign_key_id: material.clientSign.id,
              crl_number: 0,
              crl_last_update: null,
              created_at: ts,
              updated_at: ts,
            },
            material.signCa.provider_name,
            trx,
          );
          const links: [KeyWithProviderRow, string, string][] = [
            [material.signCa, "ca", "ca"],
            [material.tlsCa, "ca", "tlsca"],
            [material.adminSign, "admin", "sign"],
            [material.adminTls, "admin", "tls"],
            [material.clientSign, "client", "sign"],
          ];
          await repo.insertKeys(
            links.map(([key, role, purpose]) => ({
              organization_id: inserted.id,
              key_id: key.id,
              role,
              purpose,
              created_at: ts,
            })),
            trx,
          );
          await keys.activate(
            links.map(([key]) => key.id),
            trx,
          );
          return inserted;
        });
        // The rows just written: the CA keys' certificates and public keys don't change when activated.
        return toOrganizationResponse(row, material.signCa, material.tlsCa);
      } catch (err) {
        // Keys are generated outside the transaction; don't leave orphans behind, here or in a remote provider.
        const removed = await keys.removeOwned([...created].reverse()).catch(() => []);
        await keys.forgetInProviders(removed);
        if (isUniqueViolation(err))
          throw new ConflictError(`mspId: an organization with mspId '${body.mspId}' already exists`);
        throw err;
      }
    },

    async update(id: number, patch: { description: string }): Promise<OrganizationResponse> {
      await mustGet(id);
      await repo.update(id, { description: patch.description, updated_at: nowIso() });
      return respond(await mustGet(id));
    },

    /** Lets another module block deletion of organizations it uses. */
    addUsageChecker(check: (orgId: number) => Promise<string | null>): void {
      usageCheckers.push(check);
    },

    /** Deletes the organization and its keys; `leftovers` names remote keys its provider kept. */
    async remove(id: number): Promise<OrganizationRow & { leftovers: string[] }> {
      const row = await mustGet(id);
      for (const check of usageCheckers) {
        const user = await check(id);
        if (user)
          throw new ConflictError(`id: organization '${row.msp_id}' is still used by ${user}; delete that first`);
      }
      const keyIds = (await repo.keys(id)).map((k) => k.key_id);
      const removed = await repo.transaction(async (trx) => {
        await repo.delete(id, trx);
        // Identities first, CAs last: leaf keys reference their CA through signing_key_id.
        return keys.removeOwned([...keyIds].reverse(), trx);
      });
      return { ...row, leftovers: await keys.forgetInProviders(removed) };
    },

    /** The organization's keys by key id (the upstream shape: `{keys: {"<keyId>": {...}}}`). */
    async listKeys(id: number): Promise<{ keys: Record<string, OrganizationKeyDto> }> {
      await mustGet(id);
      const links = await repo.keys(id);
      const rows = new Map((await keys.rows(links.map((l) => l.key_id))).map((r) => [r.id, r]));
      const list = links.flatMap((l): OrganizationKeyDto[] => {
        const k = rows.get(l.key_id);
        if (!k) return [];
        return [
          {
            ...toOrgKeyResponse(k),
            organizationId: id,
            keyId: k.id,
            keyName: k.name,
            identityType: l.role,
            keyPurpose: l.purpose,
            keyAlgorithm: k.algorithm,
            keyStatus: k.status,
            keyExpiresAt: k.expires_at,
          },
        ];
      });
      return { keys: Object.fromEntries(list.map((k) => [String(k.keyId), k])) };
    },

    /** One key of the organization; 404 naming keyId when the key is not the organization's. */
    async getKey(orgId: number, keyId: number): Promise<KeyWithProviderRow> {
      const org = await mustGet(orgId);
      if (!(await repo.keyLink(orgId, keyId))) {
        throw new NotFoundError(`keyId: key ${keyId} is not a key of organization '${org.msp_id}'`);
      }
      return keys.row(keyId);
    },

    /**
     * DELETE /organizations/{id}/keys/{keyId}: removes an identity issued for the organization. Its CAs
     * and the admin and client identities made with it go with the organization; a key another module
     * uses (a node) is refused by name before anything changes, and the link and the key go in one
     * transaction. The certificate is not revoked.
     */
    async removeKey(orgId: number, keyId: number): Promise<KeyWithProviderRow> {
      const org = await mustGet(orgId);
      const link = await repo.keyLink(orgId, keyId);
      if (!link) throw new NotFoundError(`keyId: key ${keyId} is not a key of organization '${org.msp_id}'`);
      const own = [
        org.sign_key_id,
        org.tls_root_key_id,
        org.admin_sign_key_id,
        org.admin_tls_key_id,
        org.client_sign_key_id,
      ];
      if (own.includes(keyId) || link.role === "ca") {
        throw new ConflictError(
          `keyId: key ${keyId} is organization '${org.msp_id}'s ${link.role} ${link.purpose} key; it is deleted with the organization`,
          { field: "keyId", usedBy: `organization "${org.msp_id}"` },
        );
      }
      return keys.removeLinked(keyId, userOfKey, (trx) => repo.deleteKeyLink(orgId, keyId, trx));
    },

    userOfKey,

    mustGet,
  };
}

export type OrganizationsService = ReturnType<typeof createOrganizationsService>;
