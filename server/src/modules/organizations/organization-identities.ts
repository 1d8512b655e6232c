import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import { ConflictError } from "../../http/errors.js";
import type { KeysService } from "../keys/keys.service.js";
import { parseValidFor, type OrgKeys } from "./organization-pki.service.js";
import { organizationKeyDto, orgIdParams, type OrganizationKeyDto } from "./organizations.schema.js";
import type { OrganizationsService } from "./organizations.service.js";
import type { OrganizationsRepo } from "./organizations.repo.js";

/** The identity types upstream issues; the filter also takes orderer and ca (this console's other roles). */
const CREATE_TYPES = ["admin", "client", "peer"] as const;
const FILTER_TYPES = ["admin", "client", "peer", "orderer", "ca"] as const;
/** Grouping order of the list (upstream groups by identity type). */
const ORDER: Record<string, number> = { ca: 0, admin: 1, client: 2, peer: 3, orderer: 4 };

const identitiesQuery = lazySchema(() =>
  z
    .object({
      type: z
        .enum(FILTER_TYPES)
        .optional()
        .describe("Only identities of this type (admin, client, peer; orderer and ca too)"),
    })
    .strict(),
);

const createIdentityBody = lazySchema(() =>
  z
    .object({
      type: z.enum(CREATE_TYPES).describe('Type of identity: "admin", "client" or "peer" (its NodeOU)'),
      name: z
        .string()
        .trim()
        .max(200)
        .regex(/^[A-Za-z0-9@._-]*$/, "letters, digits, '@', '.', '_' and '-' only")
        .optional()
        .describe("Common name of the certificates; `<type>-<n>@<mspId>` when empty"),
      description: z.string().max(1000).optional().describe("Free text"),
      certValidFor: z.string().max(32).optional().describe("Certificate validity as a Go duration (default 8760h)"),
    })
    .strict()
    .describe("New identity: a signing key and a TLS key, certified by the organization's CAs"),
);

const identityResponse = lazySchema(() =>
  z
    .object({
      type: z.string().describe("The identity type"),
      signKeyId: z.number().int().describe("Key ID of the signing identity"),
      signCertificate: z.string().describe("Signing certificate PEM (issued by the sign CA)"),
      signPublicKey: z.string().describe("Signing public key PEM"),
      tlsKeyId: z.number().int().describe("Key ID of the TLS identity"),
      tlsCertificate: z.string().describe("TLS certificate PEM (issued by the TLS CA)"),
      tlsPublicKey: z.string().describe("TLS public key PEM"),
      createdAt: z.string().describe("Creation time, RFC 3339"),
    })
    .describe("A new identity (public material only)"),
);

/**
 * GET and POST /organizations/{id}/identities: an organization's keys as upstream's
 * OrganizationKeyDTO list, grouped by identity type, and new identities issued by the org's own
 * CAs (a sign key under the sign CA and a TLS key under the TLS CA, the NodeOU as OU). Private
 * keys stay in the provider; responses carry certificates and public keys only.
 */
export function registerOrganizationIdentityRoutes(
  app: FastifyInstance,
  deps: {
    orgs: Pick<OrganizationsService, "mustGet" | "listKeys">;
    pki: Pick<OrgKeys, "issueIdentity">;
    repo: Pick<OrganizationsRepo, "keys" | "deleteKeyLink" | "transaction">;
    keys: Pick<KeysService, "removeOwned" | "row">;
  },
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["Organizations"];

  r.get(
    "/organizations/:id/identities",
    {
      config: { access: "ORGANIZATION_READ" },
      schema: {
        operationId: "getOrganizationKeys",
        tags,
        summary: "An organization's identities (keys), grouped by identity type and key purpose",
        params: orgIdParams,
        querystring: identitiesQuery,
        response: { 200: lazySchema(() => z.array(organizationKeyDto)) },
      },
    },
    async (req): Promise<OrganizationKeyDto[]> => {
      const { keys } = await deps.orgs.listKeys(req.params.id);
      const type = req.query.type;
      return Object.values(keys)
        .filter((k) => !type || k.identityType === type)
        .sort((a, b) => (ORDER[a.identityType] ?? 9) - (ORDER[b.identityType] ?? 9) || a.keyId - b.keyId);
    },
  );

  r.post(
    "/organizations/:id/identities",
    {
      config: { access: "ORGANIZATION_CREATE", audit: "organization.identity_create" },
      schema: {
        operationId: "createOrganizationIdentity",
        tags,
        summary: "Create an identity (admin, client or peer): a sign and a TLS key issued by the org's CAs",
        params: orgIdParams,
        body: createIdentityBody,
        response: { 201: identityResponse },
      },
    },
    async (req, reply) => {
      const org = await deps.orgs.mustGet(req.params.id);
      // Checked here so a bad duration is named as the body's field, before any key is made.
      parseValidFor(req.body.certValidFor, "certValidFor", 0);
      req.auditInfo.resource = `organization:${org.id}`;
      const type = req.body.type;
      for (const caId of [org.sign_key_id, org.tls_root_key_id]) {
        const ca = await deps.keys.row(caId);
        if (!ca.private_key_encrypted && !ca.provider_key_ref)
          throw new ConflictError(
            `id: organization '${org.msp_id}' was imported without its CA private keys, so it can't issue identities`,
          );
      }
      const links = await deps.repo.keys(org.id);
      const name = req.body.name || `${type}-${links.filter((l) => l.role === type).length + 1}@${org.msp_id}`;
      req.auditInfo.details = { type, name };
      const common = {
        description: req.body.description,
        role: type,
        validFor: req.body.certValidFor || undefined,
      };
      const sign = await deps.pki.issueIdentity(org, { ...common, name, caType: "sign" });
      let tls;
      try {
        tls = await deps.pki.issueIdentity(org, {
          ...common,
          name,
          caType: "tls",
          dnsNames: ["localhost"],
          ipAddresses: ["127.0.0.1"],
        });
      } catch (err) {
        // Both or neither: the sign key made a moment ago goes again.
        await deps.repo.transaction(async (trx) => {
          await deps.repo.deleteKeyLink(org.id, sign.id, trx);
          await deps.keys.removeOwned([sign.id], trx);
        });
        throw err;
      }
      req.auditInfo.details = { type, name, signKeyId: sign.id, tlsKeyId: tls.id };
      return reply.status(201).send({
        type,
        signKeyId: sign.id,
        signCertificate: sign.certificate ?? "",
        signPublicKey: sign.public_key,
        tlsKeyId: tls.id,
        tlsCertificate: tls.certificate ?? "",
        tlsPublicKey: tls.public_key,
        createdAt: sign.created_at,
      });
    },
  );
}
