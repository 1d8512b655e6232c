import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import {
  createProviderBody,
  idParams,
  providerResponse,
  testProviderBody,
  testProviderResponse,
  updateProviderBody,
} from "./providers.schema.js";
import type { ProvidersService } from "./providers.service.js";

const tags = ["Notification Providers"];

/** /notifications/providers: email and webhook providers, wire-compatible with upstream. */
export function registerProvidersRoutes(app: FastifyInstance, svc: ProvidersService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/notifications/providers",
    {
      config: { access: "NOTIFICATION_PROVIDER_READ" },
      schema: {
        operationId: "listNotificationProviders",
        tags,
        summary: "List notification providers (secrets masked)",
        response: { 200: lazySchema(() => z.array(providerResponse)) },
      },
    },
    async () => svc.list(),
  );
  r.post(
    "/notifications/providers",
    {
      config: { access: "NOTIFICATION_PROVIDER_CONFIG", audit: "notification_provider.create" },
      schema: {
        operationId: "createNotificationProvider",
        tags,
        summary: "Create an email (SMTP) or webhook notification provider",
        body: createProviderBody,
        response: { 201: providerResponse },
      },
    },
    async (req, reply) => {
      const p = await svc.create(req.body);
      req.auditInfo.resource = `notification_provider:${p.id}`;
      req.auditInfo.details = { name: p.name, type: p.type };
      return reply.code(201).send(p);
    },
  );
  r.get(
    "/notifications/providers/:id",
    {
      config: { access: "NOTIFICATION_PROVIDER_READ" },
      schema: {
        operationId: "getNotificationProvider",
        tags,
        summary: "Get a notification provider (secrets masked)",
        params: idParams,
        response: { 200: providerResponse },
      },
    },
    async (req) => svc.get(req.params.id),
  );
  r.put(
    "/notifications/providers/:id",
    {
      config: { access: "NOTIFICATION_PROVIDER_CONFIG", audit: "notification_provider.update" },
      schema: {
        operationId: "updateNotificationProvider",
        tags,
        summary: "Update a notification provider; secrets omitted or sent masked keep their stored values",
        params: idParams,
        body: updateProviderBody,
        response: { 200: providerResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `notification_provider:${req.params.id}`;
      const p = await svc.update(req.params.id, req.body);
      req.auditInfo.details = { name: p.name, type: p.type };
      return p;
    },
  );
  r.delete(
    "/notifications/providers/:id",
    {
      config: { access: "NOTIFICATION_PROVIDER_CONFIG", audit: "notification_provider.delete" },
      schema: {
        operationId: "deleteNotificationProvider",
        tags,
        summary: "Delete a notification provider",
        params: idParams,
        response: { 204: lazySchema(() => z.null()) },
      },
    },
    async (req, reply) => {
      req.auditInfo.resource = `notification_provider:${req.params.id}`;
      const row = await svc.remove(req.params.id);
      req.auditInfo.details = { name: row.name, type: row.type };
      return reply.code(204).send(null);
    },
  );
  r.post(
    "/notifications/providers/:id/test",
    {
      config: { access: "NOTIFICATION_PROVIDER_CONFIG", audit: "notification_provider.test" },
      schema: {
        operationId: "testNotificationProvider",
        tags,
        summary: "Send a test email or webhook now and record the outcome on the provider",
        params: idParams,
        body: testProviderBody,
        response: { 200: testProviderResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `notification_provider:${req.params.id}`;
      const { name, ...result } = await svc.test(req.params.id, req.body.testEmail);
      req.auditInfo.details = { name, test_status: result.status };
      return result;
    },
  );
}
