import { z } from "zod";
import { dbId, dbIdQuery, lazySchema } from "../../http/schema-helpers.js";
import { REVOCATION_REASONS } from "../../crypto/crl.js";

const id = (what: string) => dbIdQuery().describe(what);
const names = (what: string) => z.array(z.string().trim().min(1).max(128)).max(10).optional().describe(what);
const duration = (what: string) => z.string().max(32).optional().describe(`${what} as a Go duration, e.g. 8760h`);
const sans = {
  dnsNames: z.array(z.string().trim().min(1).max(253)).max(50).optional().describe("DNS subject alternative names"),
  ipAddresses: z.array(z.string().trim().min(2).max(45)).max(50).optional().describe("IP subject alternative names"),
};

export const IDENTITY_ROLES = ["admin", "client", "peer", "orderer"] as const;
export const CA_TYPES = ["sign", "tls"] as const;

export const orgIdParams = lazySchema(() => z.object({ id: id("Organization ID") }).strict());
export const orgKeyParams = lazySchema(() => z.object({ id: id("Organization ID"), keyId: id("Key ID") }).strict());
export const mspIdParams = lazySchema(() =>
  z.object({ mspid: z.string().min(1).max(249).describe("MSP ID") }).strict(),
);

export const organizationResponse = lazySchema(() =>
  z
    .object({
      id: z.number().int().describe("Organization ID"),
      mspId: z.string().describe("MSP ID"),
      description: z.string().nullable().describe("Free text"),
      providerId: z.number().int().describe("Key provider holding the organization's keys"),
      providerName: z.string().describe("Key provider name"),
      signCertificate: z.string().describe("Signing root CA certificate PEM"),
      signPublicKey: z.string().describe("Signing root CA public key PEM"),
      tlsCertificate: z.string().describe("TLS root CA certificate PEM"),
      tlsPublicKey: z.string().describe("TLS root CA public key PEM"),
      adminSignKeyId: z.number().int().nullable().describe("Key ID of the admin signing identity (OU admin)"),
      adminTlsKeyId: z.number().int().nullable().describe("Key ID of the admin TLS identity"),
      clientSignKeyId: z.number().int().nullable().describe("Key ID of the client signing identity (OU client)"),
      createdAt: z.string().describe("Creation time, RFC 3339"),
      updatedAt: z.string().describe("Last change, RFC 3339"),
    })
    .describe("A Fabric organization (MSP)"),
);
export type OrganizationResponse = z.infer<typeof organizationResponse>;

export const listOrganizationsQuery = lazySchema(() =>
  z
    .object({
      limit: z.coerce.number().int().min(1).max(1000).default(20).describe("Maximum number of organizations to return"),
      offset: z.coerce.number().int().min(0).max(1_000_000).default(0).describe("Number of organizations to skip"),
      mspId: z.string().max(249).optional().describe("Filter by MSP ID"),
    })
    .strict(),
);

export const pagedOrganizationsResponse = lazySchema(() =>
  z
    .object({
      count: z.number().int().describe("Number of matching organizations"),
      items: z.array(organizationResponse).describe("This page"),
      limit: z.number().int().describe("Limit used"),
      offset: z.number().int().describe("Offset used"),
    })
    .describe("A page of organizations"),
);

export const createOrganizationBody = lazySchema(() =>
  z
    .object({
      mspId: z.string().trim().min(1).max(249).describe("MSP ID: letters, digits, dots and hyphens"),
      name: z.string().trim().min(1).max(255).describe("Display name"),
      description: z.string().max(1000).optional().describe("Free text"),
      providerId: dbId().optional().describe("Key provider; the default when omitted"),
      caCertValidFor: duration("CA validity (default 87600h)"),
      certValidFor: duration("Identity certificate validity (default 8760h)"),
      country: names("Subject C of the CA certificates"),
      province: names("Subject ST"),
      locality: names("Subject L"),
      streetAddress: names("Subject street"),
      postalCode: names("Subject postal code"),
    })
    .strict()
    .describe("New organization"),
);
export type CreateOrganizationBody = z.infer<typeof createOrganizationBody>;

export const updateOrganizationBody = lazySchema(() =>
  z
    .object({ description: z.string().max(1000).describe("Free text") })
    .strict()
    .describe("Fields to change"),
);

export const createOrganizationKeyBody = lazySchema(() =>
  z
    .object({
      name: z.string().trim().min(1).max(255).describe("Key name; also the certificate's common name"),
      description: z.string().max(1000).optional().describe("Free text"),
      role: z.enum(IDENTITY_ROLES).describe("NodeOU written into the certificate's OU"),
      ...sans,
    })
    .strict()
    .describe("New identity issued by the organization's CA"),
);

export const renewCertificateBody = lazySchema(() =>
  z
    .object({
      keyId: dbId().describe("Key whose certificate to reissue"),
      caType: z.enum(CA_TYPES).optional().describe("Which CA issues it (defaults to the one that issued it)"),
      role: z.enum(IDENTITY_ROLES).optional().describe("Change the NodeOU"),
      validFor: duration("Validity (default 8760h; 87600h for CAs)"),
      ...sans,
    })
    .strict()
    .describe("Certificate renewal"),
);

export const orgKeyResponse = lazySchema(() =>
  z
    .object({
      id: z.number().int().describe("Key ID"),
      name: z.string().describe("Key name"),
      description: z.string().nullable().describe("Free text"),
      algorithm: z.string().describe("Key algorithm"),
      publicKey: z.string().describe("Public key PEM"),
      certificate: z.string().nullable().describe("Certificate PEM"),
      status: z.string().describe("Key status"),
      createdAt: z.string().describe("Creation time"),
      expiresAt: z.string().nullable().describe("Certificate notAfter"),
      lastRotatedAt: z.string().nullable().describe("Last renewal"),
      sha256Fingerprint: z.string().describe("SHA-256 of the public key, hex"),
      sha1Fingerprint: z.string().describe("Subject Key Identifier, hex"),
      ethereumAddress: z.string().nullable().describe("Ethereum address (secp256k1 keys only)"),
      signingKeyId: z.number().int().nullable().describe("CA key that signed the certificate"),
      provider: z
        .object({ id: z.number().int().describe("Provider ID"), name: z.string().describe("Provider name") })
        .describe("Key provider"),
    })
    .describe("An organization key"),
);
export type OrgKeyResponse = z.infer<typeof orgKeyResponse>;

/**
 * A key in GET /organizations/{id}/keys: the key as GET /keys/{id} and upstream's
 * handler.KeyResponse have it (what the Terraform provider reads), plus upstream's
 * OrganizationKeyDTO fields, its place in the organization.
 */
export const organizationKeyDto = lazySchema(() =>
  orgKeyResponse
    .unwrap()
    .extend({
      organizationId: z.number().int().describe("Organization ID"),
      keyId: z.number().int().describe("Key ID (the same as id and the map key)"),
      keyName: z.string().describe("Key name"),
      identityType: z.string().describe("Role: admin, client, peer, orderer, or ca for the organization's CAs"),
      keyPurpose: z.string().describe("sign, tls, ca or tlsca"),
      keyAlgorithm: z.string().describe("Key algorithm"),
      keyStatus: z.string().describe("Key status"),
      keyExpiresAt: z.string().nullable().describe("Certificate notAfter, RFC 3339"),
    })
    .describe("A key of an organization"),
);
export type OrganizationKeyDto = z.infer<typeof organizationKeyDto>;

/** GET /organizations/{id}/keys: the organization's keys by key id, as the upstream server answers. */
export const organizationKeysResponse = lazySchema(() =>
  z
    .object({
      keys: z.record(z.string(), organizationKeyDto).describe("The organization's keys, keyed by key id"),
    })
    .describe("An organization's keys"),
);

const reason = lazySchema(() =>
  z
    .number()
    .int()
    .refine((v) => (REVOCATION_REASONS as readonly number[]).includes(v), {
      message: "must be an RFC 5280 reason code (0-6, 8-10)",
    })
    .optional()
    .describe("RFC 5280 reason code; 0 unspecified, 1 keyCompromise, 4 superseded, 5 cessationOfOperation"),
);
const serial = lazySchema(() => z.string().trim().min(1).max(64).describe("Certificate serial number in hex"));

export const revokeByPemBody = lazySchema(() =>
  z
    .object({ certificate: z.string().min(1).max(20_000).describe("Certificate PEM"), revocationReason: reason })
    .strict(),
);
export const revokeBySerialBody = lazySchema(() =>
  z.object({ serialNumber: serial, revocationReason: reason }).strict(),
);
export const deleteRevokedBody = lazySchema(() => z.object({ serialNumber: serial }).strict());
export const messageResponse = lazySchema(() =>
  z.object({ message: z.string().describe("Result") }).describe("Result"),
);

export const revokedCertificateResponse = lazySchema(() =>
  z
    .object({
      serialNumber: z.string().describe("Serial number, hex"),
      revocationTime: z.string().describe("Revocation time, RFC 3339"),
      reason: z.number().int().describe("RFC 5280 reason code"),
    })
    .describe("A revoked certificate"),
);
