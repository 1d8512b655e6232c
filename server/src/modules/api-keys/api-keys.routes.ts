import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import { idParams } from "../users/users.schema.js";
import {
  apiKeyLogResponse,
  apiKeyResponse,
  createApiKeyBody,
  createApiKeyResponse,
  logsQuery,
} from "./api-keys.schema.js";
import type { ApiKeysService } from "./api-keys.service.js";

const tags = ["API Keys"];

/** API keys of the signed-in user. */
export function registerApiKeysRoutes(app: FastifyInstance, keys: ApiKeysService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    "/api-keys",
    {
      config: { access: "API_KEY_READ" },
      schema: {
        operationId: "listAPIKeys",
        tags,
        summary: "List your API keys",
        response: { 200: lazySchema(() => z.array(apiKeyResponse)) },
      },
    },
    async (req) => keys.list(req.principal!),
  );

  r.post(
    "/api-keys",
    {
      config: { access: "API_KEY_CREATE", audit: "api_key.create" },
      schema: {
        operationId: "createAPIKey",
        tags,
        summary: "Create an API key; the secret is returned once",
        body: createApiKeyBody,
        response: { 201: createApiKeyResponse },
      },
    },
    async (req, reply) => {
      req.auditInfo.details = {
        name: req.body.name,
        role: req.body.role ?? null,
        expires_in: req.body.expires_in ?? null,
      };
      const created = await keys.create(req.principal!, req.body);
      req.auditInfo.resource = `api_key:${created.api_key.id}`;
      return reply.status(201).send(created);
    },
  );

  r.get(
    "/api-keys/:id",
    {
      config: { access: "API_KEY_READ" },
      schema: {
        operationId: "getAPIKey",
        tags,
        summary: "Get one of your API keys",
        params: idParams,
        response: { 200: apiKeyResponse },
      },
    },
    async (req) => keys.get(req.params.id, req.principal!),
  );

  r.delete(
    "/api-keys/:id",
    {
      config: { access: "API_KEY_REVOKE", audit: "api_key.revoke" },
      schema: {
        operationId: "deactivateAPIKey",
        tags,
        summary: "Revoke one of your API keys, effective immediately",
        params: idParams,
        response: { 204: lazySchema(() => z.null().describe("Revoked")) },
      },
    },
    async (req, reply) => {
      req.auditInfo.resource = `api_key:${req.params.id}`;
      const row = await keys.revoke(req.params.id, req.principal!);
      req.auditInfo.details = { name: row.name };
      return reply.status(204).send(null);
    },
  );

  r.get(
    "/api-keys/:id/logs",
    {
      config: { access: "API_KEY_READ" },
      schema: {
        operationId: "getAPIKeyLogs",
        tags,
        summary: "Usage log of one of your API keys, newest first",
        params: idParams,
        querystring: logsQuery,
        response: { 200: lazySchema(() => z.array(apiKeyLogResponse)) },
      },
    },
    async (req) => keys.logs(req.params.id, req.principal!, req.query.limit),
  );
}
