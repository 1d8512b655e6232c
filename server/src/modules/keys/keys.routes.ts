import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import {
  createKeyBody,
  filterKeysQuery,
  keyIdParams,
  keyResponse,
  listKeysQuery,
  pagedKeysResponse,
  signKeyBody,
  signKeyParams,
} from "./keys.schema.js";
import type { KeysService } from "./keys.service.js";

const tags = ["Keys"];

/** Keys: public material only; private keys stay encrypted in their provider. */
export function registerKeysRoutes(app: FastifyInstance, keys: KeysService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    "/keys",
    {
      config: { access: "KEY_READ" },
      schema: {
        operationId: "getPaginatedKeys",
        tags,
        summary: "List keys, paged",
        querystring: listKeysQuery,
        response: { 200: pagedKeysResponse },
      },
    },
    async (req) => keys.list({ providerId: req.query.provider_id }, req.query.page, req.query.pageSize),
  );

  r.get(
    "/keys/all",
    {
      config: { access: "KEY_READ" },
      schema: {
        operationId: "getAllKeys",
        tags,
        summary: "Every key, unpaged (public material only)",
        response: { 200: lazySchema(() => z.array(keyResponse).describe("All keys, in id order")) },
      },
    },
    async () => keys.all(),
  );

  r.get(
    "/keys/filter",
    {
      config: { access: "KEY_READ" },
      schema: {
        operationId: "filterKeys",
        tags,
        summary: "Filter keys by provider, algorithm and curve",
        querystring: filterKeysQuery,
        response: { 200: pagedKeysResponse },
      },
    },
    async (req) =>
      keys.list(
        { providerId: req.query.provider_id, algorithm: req.query.algorithm?.toUpperCase(), curve: req.query.curve },
        req.query.page,
        req.query.pageSize,
      ),
  );

  r.post(
    "/keys",
    {
      config: { access: "KEY_CREATE", audit: "key.create" },
      schema: {
        operationId: "createKey",
        tags,
        summary: "Generate a key, optionally with a certificate",
        body: createKeyBody,
        response: { 201: keyResponse },
      },
    },
    async (req, reply) => {
      req.auditInfo.details = {
        name: req.body.name,
        algorithm: req.body.algorithm,
        curve: req.body.curve ?? null,
        providerId: req.body.providerId ?? null,
      };
      const created = await keys.create(req.body);
      req.auditInfo.resource = `key:${created.id}`;
      return reply.status(201).send(created);
    },
  );

  r.get(
    "/keys/:id",
    {
      config: { access: "KEY_READ" },
      schema: {
        operationId: "getKeyById",
        tags,
        summary: "Get a key",
        params: keyIdParams,
        response: { 200: keyResponse },
      },
    },
    async (req) => keys.get(req.params.id),
  );

  r.post(
    "/keys/:keyID/sign",
    {
      config: { access: "KEY_CREATE", audit: "key.sign" },
      schema: {
        operationId: "signCertificate",
        tags,
        summary: "Issue a certificate for a key, signed by a CA key",
        params: signKeyParams,
        body: signKeyBody,
        response: { 200: keyResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `key:${req.params.keyID}`;
      req.auditInfo.details = { caKeyId: req.body.caKeyId, commonName: req.body.certificate.commonName };
      return keys.signWithCa(req.params.keyID, req.body.caKeyId, req.body.certificate);
    },
  );

  r.delete(
    "/keys/:id",
    {
      config: { access: "KEY_DELETE", audit: "key.delete" },
      schema: {
        operationId: "deleteKey",
        tags,
        summary: "Delete a key no organization or node uses",
        params: keyIdParams,
        response: { 204: lazySchema(() => z.null().describe("Deleted")) },
      },
    },
    async (req, reply) => {
      req.auditInfo.resource = `key:${req.params.id}`;
      const removed = await keys.remove(req.params.id);
      req.auditInfo.details = { name: removed.name, algorithm: removed.algorithm };
      return reply.status(204).send(null);
    },
  );
}
