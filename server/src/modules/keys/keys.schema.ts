import { z } from "zod";
import { dbId, dbIdQuery, idPathParams, lazySchema } from "../../http/schema-helpers.js";
import { EC_CURVES, KEY_ALGORITHMS, RSA_KEY_SIZES } from "../../crypto/key-algorithms.js";
import { PROVIDER_TYPES } from "../key-providers/provider.js";

const names = (what: string) => z.array(z.string().trim().min(1).max(128)).max(20).optional().describe(what);

export const keyIdParams = idPathParams("Key ID");

export const signKeyParams = lazySchema(() =>
  z
    .object({
      keyID: dbIdQuery().describe("Key ID to sign"),
    })
    .strict(),
);

/** Subject, SANs and validity of a certificate to attach to a key. */
export const certificateRequest = lazySchema(() =>
  z
    .object({
      commonName: z.string().trim().min(1).max(64).describe("Subject common name (CN)"),
      organization: names("Subject O"),
      organizationalUnit: names("Subject OU; Fabric NodeOUs use admin, client, peer or orderer"),
      country: names("Subject C (two-letter codes)"),
      province: names("Subject ST"),
      locality: names("Subject L"),
      streetAddress: names("Subject street"),
      postalCode: names("Subject postal code"),
      dnsNames: z.array(z.string().trim().min(1).max(253)).max(50).optional().describe("DNS subject alternative names"),
      emailAddresses: z
        .array(z.string().trim().min(3).max(254))
        .max(20)
        .optional()
        .describe("Email subject alternative names"),
      isCA: z.boolean().optional().describe("True for a CA certificate (keyCertSign, cRLSign)"),
      validFor: z.string().max(32).optional().describe("Validity as a Go duration, e.g. 8760h (default one year)"),
    })
    .strict()
    .describe("Certificate subject, SANs and validity"),
);
export type CertificateRequest = z.infer<typeof certificateRequest>;

export const createKeyBody = lazySchema(() =>
  z
    .object({
      name: z.string().trim().min(1).max(255).describe("Key name"),
      description: z.string().max(1000).optional().describe("Free text"),
      algorithm: z
        .string()
        .trim()
        .min(1)
        .max(16)
        .describe(`Key algorithm: ${KEY_ALGORITHMS.join(", ")}`),
      curve: z
        .string()
        .max(16)
        .optional()
        .describe(`Curve for EC keys: ${EC_CURVES.join(", ")} (default P-256)`),
      keySize: z
        .number()
        .int()
        .min(0)
        .max(16384)
        .optional()
        .describe(`RSA modulus size: ${RSA_KEY_SIZES.join(" or ")} (default 2048)`),
      providerId: dbId().optional().describe("Key provider; the default provider when omitted"),
      isCA: z
        .number()
        .int()
        .min(0)
        .max(1)
        .optional()
        .describe("1 makes the certificate a CA (same as certificate.isCA)"),
      certificate: certificateRequest
        .unwrap()
        .optional()
        .describe("Attach a self-signed certificate; use POST /keys/{keyID}/sign for a CA-issued one"),
    })
    .strict()
    .describe("New key"),
);
export type CreateKeyBody = z.infer<typeof createKeyBody>;

export const signKeyBody = lazySchema(() =>
  z
    .object({
      caKeyId: dbId().describe("The CA key that signs"),
      certificate: certificateRequest
        .unwrap()
        .omit({ isCA: true })
        .describe("Subject, SANs and validity of the new certificate"),
    })
    .strict()
    .describe("Issue a certificate for an existing key"),
);

export const keyResponse = lazySchema(() =>
  z
    .object({
      id: z.number().int().describe("Key ID"),
      name: z.string().describe("Key name"),
      description: z.string().nullable().describe("Free text"),
      algorithm: z.enum(KEY_ALGORITHMS).describe("Key algorithm"),
      curve: z.enum(EC_CURVES).nullable().describe("Curve of EC keys"),
      keySize: z.number().int().nullable().describe("RSA modulus size"),
      format: z.string().describe("Encoding of publicKey and certificate (PEM)"),
      publicKey: z.string().describe("SubjectPublicKeyInfo PEM"),
      certificate: z.string().nullable().describe("Certificate PEM, if the key has one"),
      status: z.string().describe("active"),
      createdAt: z.string().describe("Creation time, RFC 3339"),
      expiresAt: z.string().nullable().describe("Certificate notAfter, RFC 3339"),
      lastRotatedAt: z.string().nullable().describe("Last certificate renewal, RFC 3339"),
      sha256Fingerprint: z.string().describe("SHA-256 of the public key (SPKI DER), hex"),
      sha1Fingerprint: z.string().describe("Subject Key Identifier: SHA-1 of the public key bits, hex"),
      ethereumAddress: z.string().nullable().describe("EIP-55 address of secp256k1 keys"),
      signingKeyID: z.number().int().nullable().describe("The CA key that signed the certificate"),
      provider: z
        .object({
          id: z.number().int().describe("Provider ID"),
          name: z.string().describe("Provider name"),
          type: z.enum(PROVIDER_TYPES).describe("Provider type"),
        })
        .describe("Where the private key lives"),
      providerMetadata: z.record(z.string(), z.unknown()).describe("Provider-specific details"),
      kmsKeyId: z.string().nullable().describe("Key id inside a remote provider"),
      canUseInNodes: z
        .boolean()
        .describe(
          "True for keys a Fabric (P-256) or Besu (secp256k1) node can use: database-provider keys, as nodes read their key from disk",
        ),
      generatedLocally: z.boolean().describe("True when generated by this server"),
      importedToProvider: z.boolean().describe("True when imported into the provider"),
      isExportable: z.boolean().describe("Private keys are never exported by the API"),
      wasExported: z.boolean().describe("Always false"),
    })
    .describe("A key: public material only, never the private key"),
);
export type KeyResponse = z.infer<typeof keyResponse>;

const paging = {
  page: z.coerce.number().int().min(1).max(1_000_000).default(1).describe("Page number, from 1"),
  pageSize: z.coerce.number().int().min(1).max(1000).default(10).describe("Page size"),
};

export const listKeysQuery = lazySchema(() =>
  z
    .object({
      ...paging,
      provider_id: dbIdQuery().optional().describe("Filter by provider ID"),
    })
    .strict(),
);

export const filterKeysQuery = lazySchema(() =>
  z
    .object({
      ...paging,
      provider_id: dbIdQuery().optional().describe("Filter by provider ID"),
      algorithm: z.string().max(16).optional().describe("Filter by algorithm (EC, ED25519, RSA)"),
      curve: z.string().max(16).optional().describe("Filter by curve (P-256, P-384, secp256k1)"),
    })
    .strict(),
);

export const pagedKeysResponse = lazySchema(() =>
  z
    .object({
      items: z.array(keyResponse).describe("This page"),
      page: z.number().int().describe("Page number"),
      pageSize: z.number().int().describe("Page size"),
      totalItems: z.number().int().describe("Number of matching keys"),
    })
    .describe("A page of keys"),
);
export type PagedKeysResponse = z.infer<typeof pagedKeysResponse>;
