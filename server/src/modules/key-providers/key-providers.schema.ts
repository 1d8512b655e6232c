import { z } from "zod";
import { idPathParams, lazySchema } from "../../http/schema-helpers.js";
import { PROVIDER_TYPES } from "./provider.js";

const str = (what: string) => z.string().max(4096).optional().describe(what);

/**
 * Vault or OpenBao. `operation` IMPORT links an existing server (address, token, optional CA cert and
 * namespace); CREATE makes a managed OpenBao that this console runs as a process (port, shares,
 * threshold), started (initialised and unsealed) by the create itself.
 */
export const vaultConfig = lazySchema(() =>
  z
    .object({
      address: str("Vault address"),
      caCert: str("CA certificate PEM"),
      caEngine: z
        .enum(["transit", "pki"])
        .optional()
        .describe(
          "Where CA keys (self-signed isCA keys, e.g. an organization's CAs) live: transit (default; certificates are built by the console and signed by transit) or pki (a PKI issuer; Vault issues the certificates)",
        ),
      defaultCACertTTL: str("Default CA certificate TTL"),
      defaultCertTTL: str("Default certificate TTL"),
      kvMount: str("KV mount"),
      maxCACertTTL: str("Maximum CA certificate TTL"),
      maxCertTTL: str("Maximum certificate TTL"),
      mode: str("Mode"),
      namespace: str("Namespace"),
      network: str("Network"),
      operation: str("IMPORT links an existing Vault or OpenBao; CREATE runs a managed OpenBao (default IMPORT)"),
      pkiMount: str("PKI mount"),
      port: z.number().int().min(0).max(65535).optional().describe("Port"),
      shares: z.number().int().min(0).max(100).optional().describe("Unseal key shares"),
      threshold: z.number().int().min(0).max(100).optional().describe("Unseal threshold"),
      token: str("Token"),
      transitMount: str("Transit mount"),
      version: str("Version"),
    })
    .strict(),
);

/** AWS KMS: region, static credentials or a role to assume, an optional endpoint (e.g. moto, LocalStack). */
export const awsKmsConfig = lazySchema(() =>
  z
    .object({
      assumeRoleArn: str("Role to assume"),
      awsAccessKeyId: str("Access key id"),
      awsRegion: str("Region"),
      awsSecretAccessKey: str("Secret access key"),
      awsSessionToken: str("Session token"),
      endpointUrl: str("Endpoint URL"),
      externalId: str("External id"),
      kmsKeyAliasPrefix: str("Key alias prefix, e.g. chainlaunch/ (keys are named alias/<prefix><key name>)"),
      operation: str("IMPORT (link an AWS account or endpoint)"),
    })
    .strict(),
);

export const providerIdParams = idPathParams("Provider ID");

export const providerResponse = lazySchema(() =>
  z
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
      config: z
        .record(z.string(), z.unknown())
        .describe(
          "Provider settings without secrets: `vault` or `awsKms` with the non-secret fields; tokens, keys and unseal keys are never returned",
        ),
      createdAt: z.string().describe("Creation time, RFC 3339"),
    })
    .describe("A key provider"),
);
export type ProviderResponse = z.infer<typeof providerResponse>;

export const createProviderBody = lazySchema(() =>
  z
    .object({
      name: z.string().trim().min(1).max(100).describe("Unique name"),
      type: z.enum(PROVIDER_TYPES).describe("DATABASE, VAULT or AWS_KMS (HSM is not supported)"),
      isDefault: z.number().int().min(0).max(1).optional().describe("1 to make this the default provider"),
      config: z
        .object({
          vault: vaultConfig.optional().describe("Vault settings, for type VAULT"),
          awsKms: awsKmsConfig.optional().describe("AWS KMS settings, for type AWS_KMS"),
        })
        .optional()
        .describe("Backend-specific settings; DATABASE takes none"),
    })
    .strict()
    .describe("New key provider"),
);
export type CreateProviderBody = z.infer<typeof createProviderBody>;

/** POST /key-providers/{id}/vault/tune-pki: the PKI mount's TTLs (Go durations such as 8760h). */
export const tunePkiRequest = lazySchema(() =>
  z
    .object({
      defaultCaCertTtl: str("Default TTL of CA certificates (10 years: 87600h)"),
      defaultCertTtl: str("Default TTL of certificates (1 year: 8760h)"),
      defaultLeaseTtl: str("Deprecated: use defaultCertTtl"),
      maxCaCertTtl: str("Longest TTL of CA certificates (the mount's max lease TTL)"),
      maxCertTtl: str("Longest TTL of certificates"),
      maxLeaseTtl: str("Deprecated: use maxCaCertTtl"),
    })
    .strict(),
);
export type TunePkiRequest = z.infer<typeof tunePkiRequest>;

export const vaultOperationResponse = lazySchema(() =>
  z
    .object({
      success: z.boolean().describe("True when the operation succeeded"),
      message: z.string().describe("What happened"),
      error: z.string().optional().describe("Why it failed"),
    })
    .describe("Result of a Vault operation"),
);
export type VaultOperationResponse = z.infer<typeof vaultOperationResponse>;

export const vaultStatusResponse = lazySchema(() =>
  z
    .object({
      provider_id: z.number().int().describe("Provider ID"),
      provider_name: z.string().describe("Provider name"),
      mode: z.string().describe("managed (this console runs OpenBao) or external"),
      address: z.string().describe("Vault API address"),
      port: z.string().describe("Listen port (managed)"),
      data_directory: z.string().describe("Storage directory (managed)"),
      data_exists: z.boolean().describe("True when the storage directory exists (managed)"),
      has_unseal_keys: z.boolean().describe("True when the console keeps the unseal keys (managed)"),
      vault_reachable: z.boolean().describe("True when the API answered"),
      vault_initialized: z.boolean().describe("True when the server is initialized"),
      sealed: z.boolean().describe("True while sealed"),
      vault_status: z.string().describe("active, standby, sealed, uninitialized, stopped or unreachable"),
      vault_status_code: z.number().int().describe("HTTP status of /v1/sys/health (0 when unreachable)"),
      vault_version: z.string().describe("Server version"),
      cluster_id: z.string().describe("Cluster id"),
      cluster_name: z.string().describe("Cluster name"),
      vault_health_details: z.record(z.string(), z.unknown()).describe("The /v1/sys/health answer"),
      error: z.string().optional().describe("Why the server could not be reached"),
      docker_available: z.boolean().describe("Always false: managed Vault runs as a process"),
      container_exists: z.boolean().describe("Managed: the process was started by this console"),
      container_running: z.boolean().describe("Managed: the process is running"),
      container_status: z.string().describe("Managed: running, stopped, crashed or not_created"),
      container_id: z.string().describe("Managed: process id"),
      container_full_id: z.string().describe("Managed: process id"),
      container_name: z.string().describe("Managed: process name"),
      container_image: z.string().describe("Managed: the server binary"),
      container_created: z.string().describe("Managed: when the data directory was created"),
      container_started_at: z.string().describe("Managed: when the process started"),
      container_finished_at: z.string().describe("Managed: when the process stopped"),
      container_error: z.string().describe("Managed: the last exit or start error"),
      container_restart_count: z.number().int().describe("Managed: restarts after crashes"),
      container_ports: z.record(z.string(), z.unknown()).describe("Managed: listen addresses"),
      default_cert_ttl: z.string().describe("Default certificate TTL"),
      default_ca_cert_ttl: z.string().describe("Default CA certificate TTL"),
      max_cert_ttl: z.string().describe("Maximum certificate TTL"),
      max_ca_cert_ttl: z.string().describe("Maximum CA certificate TTL"),
    })
    .describe("State of a Vault provider's server"),
);
export type VaultStatusResponse = z.infer<typeof vaultStatusResponse>;

export const awsKmsStatusResponse = lazySchema(() =>
  z
    .object({
      provider_id: z.number().int().describe("Provider ID"),
      provider_name: z.string().describe("Provider name"),
      region: z.string().describe("AWS region"),
      endpoint: z.string().describe("Custom endpoint, when set"),
      access_key_id: z.string().describe("Access key id, masked"),
      has_credentials: z.boolean().describe("True when static credentials are stored"),
      account_id: z.string().describe("AWS account (from STS GetCallerIdentity when it answers)"),
      kms_reachable: z.boolean().describe("True when KMS answered"),
      service_available: z.boolean().describe("True when KMS answered"),
      kms_status: z.string().describe("available, unavailable or error"),
      connection_error: z.string().describe("Why KMS could not be reached"),
      key_count: z.number().int().describe("Keys this console keeps in the provider"),
      sdk_version: z.string().describe("AWS SDK"),
    })
    .describe("Reachability of an AWS KMS provider"),
);
export type AwsKmsStatusResponse = z.infer<typeof awsKmsStatusResponse>;
