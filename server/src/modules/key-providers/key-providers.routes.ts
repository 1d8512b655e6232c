import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { createProviderBody, providerIdParams, providerResponse } from "./key-providers.schema.js";
import type { KeyProvidersService } from "./key-providers.service.js";

const tags = ["Providers"];

/** Key providers: where private keys live. */
export function registerKeyProvidersRoutes(app: FastifyInstance, providers: KeyProvidersService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    "/key-providers",
    {
      config: { access: "PROVIDER_READ" },
      schema: {
        operationId: "listKeyProviders",
        tags,
        summary: "List key providers",
        response: { 200: z.array(providerResponse) },
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
        response: { 204: z.null().describe("Deleted") },
      },
    },
    async (req, reply) => {
      req.auditInfo.resource = `key_provider:${req.params.id}`;
      const removed = await providers.remove(req.params.id);
      req.auditInfo.details = { name: removed.name, type: removed.type };
      return reply.status(204).send(null);
    },
  );
}
