import type { AwsKmsStatusResponse } from "../key-providers.schema.js";
import type { ProviderBackend, ProviderBackendContext, ProviderRowView } from "../provider.js";
import {
  awsSdkVersion,
  awsReason,
  createAwsClients,
  isAuthError,
  isNetworkError,
  kmsFailure,
} from "./aws-kms-client.js";
import type { AwsClients } from "./aws-kms-client.js";
import {
  maskAccessKeyId,
  parseAwsKmsConfig,
  storedAwsKmsConfig,
  type AwsKmsPublicConfig,
  type AwsKmsSecrets,
} from "./aws-kms-config.js";
import { createAwsKmsDriver } from "./aws-kms-driver.js";

/** The AWS_KMS backend: keys created and used inside KMS. */
export interface AwsKmsBackend extends ProviderBackend {
  /** GET /key-providers/{id}/awskms/status. */
  status(providerId: number): Promise<AwsKmsStatusResponse>;
}

/**
 * AWS KMS providers. Settings are checked against KMS at creation (ListKeys, one key): refused
 * credentials are a 400 naming the credential field, an endpoint that does not answer a 502. The
 * secret access key and session token are stored encrypted by the key-providers service; clients are
 * built once per provider from them and dropped when the provider is deleted.
 */
export function createAwsKmsBackend(ctx: ProviderBackendContext): AwsKmsBackend {
  const clients = new Map<number, Promise<{ config: AwsKmsPublicConfig; clients: AwsClients }>>();

  function clientsOf(providerId: number): Promise<{ config: AwsKmsPublicConfig; clients: AwsClients }> {
    let entry = clients.get(providerId);
    if (!entry) {
      entry = (async () => {
        const row = await ctx.row(providerId);
        const config = storedAwsKmsConfig(row.config);
        const secrets = (await ctx.secrets(providerId)) as AwsKmsSecrets;
        return { config, clients: await createAwsClients(config, secrets) };
      })();
      // A failed load (e.g. the row vanished) is not remembered.
      entry.catch(() => clients.delete(providerId));
      clients.set(providerId, entry);
    }
    return entry;
  }

  return {
    async prepare({ config: input }) {
      const { config, secrets } = parseAwsKmsConfig(input);
      const probe = await createAwsClients(config, secrets);
      try {
        await probe.kms.send(new probe.sdk.kms.ListKeysCommand({ Limit: 1 }));
      } catch (err) {
        throw kmsFailure(err, config, "listing keys", { setup: true });
      } finally {
        probe.destroy();
      }
      return { config: { ...config }, secrets: { ...secrets } as Record<string, string> };
    },

    driver(row: ProviderRowView) {
      return createAwsKmsDriver({
        config: async () => (await clientsOf(row.id)).config,
        clients: async () => (await clientsOf(row.id)).clients,
        log: ctx.log,
      });
    },

    async onDelete(row) {
      const entry = clients.get(row.id);
      clients.delete(row.id);
      if (entry) (await entry.catch(() => undefined))?.clients.destroy();
    },

    async onClose() {
      const all = [...clients.values()];
      clients.clear();
      for (const entry of all) (await entry.catch(() => undefined))?.clients.destroy();
    },

    async status(providerId) {
      const row = await ctx.row(providerId);
      const config = storedAwsKmsConfig(row.config);
      const secrets = (await ctx.secrets(providerId)) as AwsKmsSecrets;
      const { clients: c } = await clientsOf(providerId);
      let kmsStatus = "available";
      let connectionError = "";
      try {
        await c.kms.send(new c.sdk.kms.ListKeysCommand({ Limit: 1 }));
      } catch (err) {
        kmsStatus = isNetworkError(err) ? "unavailable" : "error";
        connectionError = isAuthError(err) ? `credentials refused (${awsReason(err)})` : awsReason(err);
      }
      let accountId = "";
      if (kmsStatus === "available") {
        // Optional: KMS may be reachable where STS is not (a VPC endpoint for KMS only).
        accountId = await c.sts
          .send(new c.sdk.sts.GetCallerIdentityCommand({}))
          .then((r) => r.Account ?? "")
          .catch(() => "");
      }
      return {
        provider_id: row.id,
        provider_name: row.name,
        region: config.awsRegion,
        endpoint: config.endpointUrl ?? "",
        access_key_id: maskAccessKeyId(config.awsAccessKeyId),
        has_credentials: Boolean(config.awsAccessKeyId && secrets.awsSecretAccessKey),
        account_id: accountId,
        kms_reachable: kmsStatus !== "unavailable",
        service_available: kmsStatus === "available",
        kms_status: kmsStatus,
        connection_error: connectionError,
        key_count: await ctx.countKeys(providerId),
        sdk_version: awsSdkVersion(),
      };
    },
  };
}
