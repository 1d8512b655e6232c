import { z } from "zod";
import { PROVIDER_TYPES } from "./provider.js";

const str = (what: string) => z.string().max(4096).optional().describe(what);

/** Accepted for the upstream contract; Vault providers arrive in a later release. */
const vaultConfig = z
  .object({
    address: str("Vault address"),
    caCert: str("CA certificate PEM"),
    defaultCACertTTL: str("Default CA certificate TTL"),
    defaultCertTTL: str("Default certificate TTL"),
    kvMount: str("KV mount"),
    maxCACertTTL: str("Maximum CA certificate TTL"),
    maxCertTTL: str("Maximum certificate TTL"),
    mode: str("Mode"),
    namespace: str("Namespace"),
    network: str("Network"),
    operation: str("Operation"),
    pkiMount: str("PKI mount"),
    port: z.number().int().min(0).max(65535).optional().describe("Port"),
    shares: z.number().int().min(0).max(100).optional().describe("Unseal key shares"),
    threshold: z.number().int().min(0).max(100).optional().describe("Unseal threshold"),
    token: str("Token"),
    transitMount: str("Transit mount"),
    version: str("Version"),
  })
  .strict();

/** Accepted for the upstream contract; AWS KMS providers arrive in a later release. */
const awsKmsConfig = z
  .object({
    assumeRoleArn: str("Role to assume"),
    awsAccessKeyId: str("Access key id"),
    awsRegion: str("Region"),
    awsSecretAccessKey: str("Secret access key"),
    awsSessionToken: str("Session token"),
    endpointUrl: str("Endpoint URL"),
    externalId: str("External id"),
    kmsKeyAliasPrefix: str("Key alias prefix"),
    operation: str("Operation"),
  })
  .strict();

export const providerIdParams = z
  .object({
    id: z.coerce
      .number()
      .int()
      .min(1)
      .max(2 ** 31 - 1)
      .describe("Provider ID"),
  })
  .strict();

export const providerResponse = z
  .object({
    id: z.number().int().describe("Provider ID"),
    name: z.string().describe("Unique name"),
    type: z.enum(PROVIDER_TYPES).describe("Backend: DATABASE keeps envelope-encrypted keys in our database"),
    isDefault: z
      .number()
      .int()
      .min(0)
      .max(1)
      .describe("1 when new keys and organizations use this provider by default"),
    config: z.record(z.string(), z.unknown()).describe("Provider settings without secrets"),
    createdAt: z.string().describe("Creation time, RFC 3339"),
  })
  .describe("A key provider");
export type ProviderResponse = z.infer<typeof providerResponse>;

export const createProviderBody = z
  .object({
    name: z.string().trim().min(1).max(100).describe("Unique name"),
    type: z.enum(PROVIDER_TYPES).describe("DATABASE today; VAULT and AWS_KMS come in a later release"),
    isDefault: z.number().int().min(0).max(1).optional().describe("1 to make this the default provider"),
    config: z
      .object({
        vault: vaultConfig.optional().describe("Vault settings (not supported yet)"),
        awsKms: awsKmsConfig.optional().describe("AWS KMS settings (not supported yet)"),
      })
      .optional()
      .describe("Backend-specific settings; DATABASE needs none"),
  })
  .strict()
  .describe("New key provider");
export type CreateProviderBody = z.infer<typeof createProviderBody>;
