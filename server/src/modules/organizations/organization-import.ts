import { createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import { keySpecOf } from "../../crypto/key-algorithms.js";
import { nowIso } from "../../db/db.js";
import { isUniqueViolation } from "../../db/unique-violation.js";
import { assertValidMspId } from "../../fabric/msp/msp-id.js";
import { ConflictError, InputError } from "../../http/errors.js";
import { withNamedInput } from "../keys/crypto-errors.js";
import type { KeysService } from "../keys/keys.service.js";
import type { KeyWithProviderRow } from "../keys/keys.repo.js";
import type { OrgKeys } from "./organization-pki.service.js";
import type { OrganizationsRepo } from "./organizations.repo.js";
import { organizationResponse, type OrganizationResponse } from "./organizations.schema.js";
import type { OrganizationsService } from "./organizations.service.js";

const pem = (what: string) => z.string().max(20_000).optional().describe(what);

const importBody = lazySchema(() =>
  z
    .object({
      mspId: z.string().trim().min(1).max(249).describe("MSP ID of the organization"),
      name: z.string().trim().min(1).max(255).describe("Display name"),
      description: z.string().max(1000).optional().describe("Free text"),
      providerId: z
        .number()
        .int()
        .min(0)
        .max(2 ** 31 - 1)
        .optional()
        .describe("Key provider for the private keys (0 or absent: the default)"),
      sourceType: z
        .enum(["raw", "vault", "aws_kms"])
        .describe('Where the material comes from; this console takes "raw"'),
      rawImport: z
        .object({
          signCaCert: pem("Signing CA certificate PEM (required)"),
          signCaPrivateKey: pem("Signing CA private key PEM (optional: lets the console issue identities)"),
          tlsCaCert: pem("TLS CA certificate PEM (required)"),
          tlsCaPrivateKey: pem("TLS CA private key PEM (optional)"),
        })
        .optional()
        .describe("PEM material, for sourceType raw"),
      vaultImport: z
        .record(z.string(), z.unknown())
        .optional()
        .describe("Upstream's Vault import (not supported here)"),
      awsKmsImport: z
        .record(z.string(), z.unknown())
        .optional()
        .describe("Upstream's AWS KMS import (not supported here)"),
    })
    .strict()
    .describe("An existing Fabric organization's CAs, with or without their private keys"),
);
type ImportBody = z.infer<typeof importBody>;

/** A CA certificate and its optional private key, checked: PEM, a CA, and a matching pair. */
interface CaMaterial {
  certificatePem: string;
  publicKey: KeyObject;
  privateKey?: KeyObject;
}

function readCa(certPem: string | undefined, keyPem: string | undefined, certField: string, keyField: string) {
  if (!certPem?.trim()) throw new InputError(`${certField}: required`, { field: certField });
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certPem);
  } catch {
    throw new InputError(`${certField}: not a PEM certificate`, { field: certField });
  }
  if (!cert.ca)
    throw new InputError(`${certField}: not a CA certificate (basicConstraints CA is not set)`, { field: certField });
  const publicKey = cert.publicKey;
  const spec = withField(certField, () => keySpecOf(publicKey));
  if (spec.algorithm !== "EC")
    throw new InputError(`${certField}: the key is ${spec.algorithm}; Fabric MSPs here use EC keys`, {
      field: certField,
    });
  const material: CaMaterial = { certificatePem: cert.toString(), publicKey };
  if (keyPem?.trim()) {
    let privateKey: KeyObject;
    try {
      privateKey = createPrivateKey(keyPem);
    } catch {
      throw new InputError(`${keyField}: not a PEM private key`, { field: keyField });
    }
    const der = (k: KeyObject) => k.export({ type: "spki", format: "der" });
    if (!der(createPublicKey(privateKey)).equals(der(publicKey)))
      throw new InputError(`${keyField}: is not the private key of ${certField}`, { field: keyField });
    material.privateKey = privateKey;
  }
  return material;
}

function withField<T>(field: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw new InputError(`${field}: ${(err as Error).message}`, { field });
  }
}

/**
 * POST /organizations/import: an organization whose CAs were made elsewhere. The CA certificates
 * are stored as keys (their private keys, when given, encrypted by the provider like a created
 * organization's); with both CA keys the console issues the admin and client identities as on
 * create. The MSP id's unique index decides concurrent imports: one organization, the others 409.
 */
export function registerOrganizationImportRoute(
  app: FastifyInstance,
  deps: {
    orgs: Pick<OrganizationsService, "get" | "remove">;
    pki: Pick<OrgKeys, "issueIdentity">;
    repo: Pick<OrganizationsRepo, "byMspId" | "byId" | "insert" | "insertKey" | "update" | "transaction">;
    keys: Pick<KeysService, "importKey" | "activate" | "removeOwned">;
  },
): void {
  const { repo, keys } = deps;
  const taken = (mspId: string) =>
    new ConflictError(`mspId: an organization with mspId '${mspId}' already exists`, { field: "mspId" });

  async function importOrg(body: ImportBody): Promise<OrganizationResponse> {
    if (body.sourceType !== "raw")
      throw new InputError(
        `sourceType: "${body.sourceType}" imports read keys from upstream's remote stores; this console imports "raw" PEM material (its Vault and AWS KMS providers hold keys the console made)`,
        { field: "sourceType" },
      );
    await withNamedInput(async () => assertValidMspId(body.mspId));
    const raw = body.rawImport;
    if (!raw) throw new InputError("rawImport: required when sourceType is raw", { field: "rawImport" });
    const sign = readCa(raw.signCaCert, raw.signCaPrivateKey, "rawImport.signCaCert", "rawImport.signCaPrivateKey");
    const tls = readCa(raw.tlsCaCert, raw.tlsCaPrivateKey, "rawImport.tlsCaCert", "rawImport.tlsCaPrivateKey");
    if (await repo.byMspId(body.mspId)) throw taken(body.mspId);
    const providerId = body.providerId || null;
    const made: KeyWithProviderRow[] = [];
    let orgId: number;
    try {
      for (const [m, suffix] of [
        [sign, "sign-ca"],
        [tls, "tls-ca"],
      ] as const) {
        made.push(await keys.importKey({ name: `${body.mspId}-${suffix}`, ...m, providerId, pending: true }));
      }
      const [signCa, tlsCa] = made as [KeyWithProviderRow, KeyWithProviderRow];
      const ts = nowIso();
      orgId = await repo.transaction(async (trx) => {
        const id = await repo.insert(
          {
            msp_id: body.mspId,
            name: body.name,
            description: body.description ?? null,
            provider_id: signCa.provider_id,
            sign_key_id: signCa.id,
            tls_root_key_id: tlsCa.id,
            admin_sign_key_id: null,
            admin_tls_key_id: null,
            client_sign_key_id: null,
            crl_number: 0,
            crl_last_update: null,
            created_at: ts,
            updated_at: ts,
          },
          trx,
        );
        await repo.insertKey(
          { organization_id: id, key_id: signCa.id, role: "ca", purpose: "ca", created_at: ts },
          trx,
        );
        await repo.insertKey(
          { organization_id: id, key_id: tlsCa.id, role: "ca", purpose: "tlsca", created_at: ts },
          trx,
        );
        await keys.activate([signCa.id, tlsCa.id], trx);
        return id;
      });
    } catch (err) {
      await keys.removeOwned(made.map((k) => k.id)).catch(() => []);
      if (isUniqueViolation(err)) throw taken(body.mspId);
      throw err;
    }
    if (sign.privateKey && tls.privateKey) {
      // The admin and client identities a created organization has, issued by the imported CAs.
      try {
        const org = (await repo.byId(orgId))!;
        const issue = (name: string, role: "admin" | "client", caType: "sign" | "tls") =>
          deps.pki.issueIdentity(org, {
            name,
            role,
            caType,
            ...(caType === "tls" ? { dnsNames: ["localhost"], ipAddresses: ["127.0.0.1"] } : {}),
          });
        const adminSign = await issue(`admin@${body.mspId}`, "admin", "sign");
        const adminTls = await issue(`admin@${body.mspId}`, "admin", "tls");
        const clientSign = await issue(`client@${body.mspId}`, "client", "sign");
        await repo.update(orgId, {
          admin_sign_key_id: adminSign.id,
          admin_tls_key_id: adminTls.id,
          client_sign_key_id: clientSign.id,
        });
      } catch (err) {
        await deps.orgs.remove(orgId).catch(() => undefined);
        throw err;
      }
    }
    return deps.orgs.get(orgId);
  }

  app.withTypeProvider<ZodTypeProvider>().post(
    "/organizations/import",
    {
      config: { access: "ORGANIZATION_CREATE", audit: "organization.import" },
      schema: {
        operationId: "importFabricOrganization",
        tags: ["Organizations"],
        summary: "Import an existing Fabric organization from its CA certificates (and keys)",
        description:
          "sourceType raw only. Certificates must be CA certificates with EC keys; a private key must match its " +
          "certificate (400 naming the field). With both CA keys the admin and client identities are issued here.",
        body: importBody,
        response: { 201: organizationResponse },
      },
    },
    async (req, reply) => {
      req.auditInfo.details = {
        mspId: req.body.mspId,
        sourceType: req.body.sourceType,
        withKeys: Boolean(req.body.rawImport?.signCaPrivateKey || req.body.rawImport?.tlsCaPrivateKey),
      };
      const org = await importOrg(req.body);
      req.auditInfo.resource = `organization:${org.id}`;
      return reply.status(201).send(org);
    },
  );
}
