import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import { InputError } from "../../http/errors.js";
import type { AwsKmsBackend } from "./aws-kms/aws-kms-backend.js";
import {
  awsKmsStatusResponse,
  createProviderBody,
  providerIdParams,
  providerResponse,
  tunePkiRequest,
  vaultOperationResponse,
  vaultStatusResponse,
} from "./key-providers.schema.js";
import type { KeyProvidersService } from "./key-providers.service.js";
import type { VaultBackend } from "./vault/vault-backend.js";

const tags = ["Providers"];

/** Key providers: where private keys live. */
export function registerKeyProvidersRoutes(app: FastifyInstance, providers: KeyProvidersService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  /** The provider's backend when it is of `type`; 400 naming the id otherwise. */
  async function backendFor<T>(id: number, type: "VAULT" | "AWS_KMS"): Promise<T> {
    const row = await providers.row(id);
    const backend = row.type === type ? providers.backend(type) : undefined;
    if (!backend) throw new InputError(`id: key provider "${row.name}" is of type ${row.type}, not ${type}`);
    return backend as T;
  }

  r.get(
    "/key-providers",
    {
      config: { access: "PROVIDER_READ" },
      schema: {
        operationId: "listKeyProviders",
        tags,
        summary: "List key providers",
        response: { 200: lazySchema(() => z.array(providerResponse)) },
      },
    },
    async () => providers.list(),
  );

  r.post(
    "/key-providers",
    {
      config: { access: "PROVIDER_CREATE", audit: "key_provider.create" },
      schema: {
        operationId: "createKeyProvider",
        tags,
        summary: "Add a key provider",
        body: createProviderBody,
        response: { 201: providerResponse },
      },
    },
    async (req, reply) => {
      req.auditInfo.details = { name: req.body.name, type: req.body.type, isDefault: req.body.isDefault ?? 0 };
      const created = await providers.create(req.body);
      req.auditInfo.resource = `key_provider:${created.id}`;
      return reply.status(201).send(created);
    },
  );

  r.get(
    "/key-providers/:id",
    {
      config: { access: "PROVIDER_READ" },
      schema: {
        operationId: "getKeyProvider",
        tags,
        summary: "Get a key provider",
        params: providerIdParams,
        response: { 200: providerResponse },
      },
    },
    async (req) => providers.get(req.params.id),
  );

  r.delete(
    "/key-providers/:id",
    {
      config: { access: "PROVIDER_DELETE", audit: "key_provider.delete" },
      schema: {
        operationId: "deleteKeyProvider",
        tags,
        summary: "Delete a key provider that holds no keys and is not the default",
        params: providerIdParams,
        response: { 204: lazySchema(() => z.null().describe("Deleted")) },
      },
    },
    async (req, reply) => {
      req.auditInfo.resource = `key_provider:${req.params.id}`;
      const removed = await providers.remove(req.params.id);
      req.auditInfo.details = { name: removed.name, type: removed.type };
      return reply.status(204).send(null);
    },
  );

  r.post(
    "/key-providers/:id/vault/start",
    {
      config: { access: "PROVIDER_CREATE", audit: "key_provider.vault_start" },
      schema: {
        operationId: "startVault",
        tags: ["Key Providers"],
        summary: "Start a managed OpenBao server, initialise it on first start and unseal it",
        params: providerIdParams,
        response: { 200: vaultOperationResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `key_provider:${req.params.id}`;
      return (await backendFor<VaultBackend>(req.params.id, "VAULT")).start(req.params.id);
    },
  );

  r.post(
    "/key-providers/:id/vault/stop",
    {
      config: { access: "PROVIDER_CREATE", audit: "key_provider.vault_stop" },
      schema: {
        operationId: "stopVault",
        tags: ["Key Providers"],
        summary: "Stop a managed OpenBao server",
        params: providerIdParams,
        response: { 200: vaultOperationResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `key_provider:${req.params.id}`;
      return (await backendFor<VaultBackend>(req.params.id, "VAULT")).stop(req.params.id);
    },
  );

  r.post(
    "/key-providers/:id/vault/unseal",
    {
      config: { access: "PROVIDER_CREATE", audit: "key_provider.vault_unseal" },
      schema: {
        operationId: "unsealVault",
        tags: ["Key Providers"],
        summary:
          "Unseal a managed OpenBao server with its stored unseal keys (an external Vault is unsealed by its operator)",
        params: providerIdParams,
        response: { 200: vaultOperationResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `key_provider:${req.params.id}`;
      return (await backendFor<VaultBackend>(req.params.id, "VAULT")).unseal(req.params.id);
    },
  );

  r.post(
    "/key-providers/:id/vault/tune-pki",
    {
      config: { access: "PROVIDER_CREATE", audit: "key_provider.vault_tune_pki" },
      schema: {
        operationId: "tunePKIMount",
        tags: ["Key Providers"],
        summary: "Set the TTLs of the provider's PKI mount (mounting it when missing)",
        params: providerIdParams,
        body: tunePkiRequest,
        response: { 200: vaultOperationResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `key_provider:${req.params.id}`;
      return (await backendFor<VaultBackend>(req.params.id, "VAULT")).tunePki(req.params.id, req.body);
    },
  );

  r.get(
    "/key-providers/:id/vault/status",
    {
      config: { access: "PROVIDER_READ" },
      schema: {
        operationId: "getVaultStatus",
        tags: ["Key Providers"],
        summary: "State of a Vault provider's server (and of the managed process)",
        params: providerIdParams,
        response: { 200: vaultStatusResponse },
      },
    },
    async (req) => (await backendFor<VaultBackend>(req.params.id, "VAULT")).status(req.params.id),
  );

  r.get(
    "/key-providers/:id/awskms/status",
    {
      config: { access: "PROVIDER_READ" },
      schema: {
        operationId: "getAWSKMSStatus",
        tags: ["key-providers"],
        summary: "Reachability of an AWS KMS provider and the keys it holds",
        params: providerIdParams,
        response: { 200: awsKmsStatusResponse },
      },
    },
    async (req) => (await backendFor<AwsKmsBackend>(req.params.id, "AWS_KMS")).status(req.params.id),
  );
}
