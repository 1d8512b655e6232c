import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import {
  appliedConfig,
  applyTemplateBody,
  createTemplateBody,
  exportData,
  importBody,
  messageResponse,
  templateIdParams,
  templateResponse,
  updateTemplateBody,
} from "./templates.schema.js";
import type { TemplatesService } from "./templates.service.js";
import { tags } from "./templates.routes.js";

/** Changing, applying, exporting and importing templates: managers and admins (TEMPLATE_MANAGE). */
export function registerTemplateWriteRoutes(app: FastifyInstance, svc: TemplatesService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const who = (p: { username: string } | null | undefined): string => p?.username ?? "unknown";
  r.post(
    "/templates",
    {
      config: { access: "TEMPLATE_MANAGE", audit: "template.create" },
      schema: {
        operationId: "createTemplate",
        tags,
        summary: "Create a template",
        body: createTemplateBody,
        response: { 201: templateResponse },
      },
    },
    async (req, reply) => {
      req.auditInfo.details = { name: req.body.name, platform: req.body.platform, node_type: req.body.node_type };
      const created = await svc.create(req, req.body, who(req.principal));
      req.auditInfo.resource = `template:${created.id}`;
      return reply.status(201).send(created);
    },
  );
  r.put(
    "/templates/:id",
    {
      config: { access: "TEMPLATE_MANAGE", audit: "template.update" },
      schema: {
        operationId: "updateTemplate",
        tags,
        summary: "Change a template's content (its platform and node type stay)",
        params: templateIdParams,
        body: updateTemplateBody,
        response: { 200: templateResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `template:${req.params.id}`;
      req.auditInfo.details = { name: req.body.name };
      return svc.update(req, req.params.id, req.body);
    },
  );
  r.delete(
    "/templates/:id",
    {
      config: { access: "TEMPLATE_MANAGE", audit: "template.delete" },
      schema: {
        operationId: "deleteTemplate",
        tags,
        summary: "Delete a template (it stays as an inactive row)",
        params: templateIdParams,
        response: { 204: lazySchema(() => z.null().describe("Deleted")) },
      },
    },
    async (req, reply) => {
      req.auditInfo.resource = `template:${req.params.id}`;
      await svc.remove(req.params.id);
      return reply.status(204).send(null);
    },
  );
  r.post(
    "/templates/:id/apply",
    {
      config: { access: "TEMPLATE_MANAGE", audit: "template.apply" },
      schema: {
        operationId: "applyTemplate",
        tags,
        summary: "Fill a template's variables and get the configuration (for a node template, a POST /nodes body)",
        params: templateIdParams,
        body: applyTemplateBody,
        response: { 200: appliedConfig },
      },
    },
    async (req) => {
      req.auditInfo.resource = `template:${req.params.id}`;
      req.auditInfo.details = { variables: Object.keys(req.body.variables ?? {}) };
      return svc.apply(req, req.params.id, req.body);
    },
  );
  r.post(
    "/templates/:id/set-default",
    {
      config: { access: "TEMPLATE_MANAGE", audit: "template.set_default" },
      schema: {
        operationId: "setDefaultTemplate",
        tags,
        summary: "Make a template the only default of its platform and node type",
        params: templateIdParams,
        response: { 200: messageResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `template:${req.params.id}`;
      const row = await svc.setDefault(req.params.id);
      return { message: `template ${row.id} is the default for ${row.platform} ${row.node_type}` };
    },
  );
  r.get(
    "/templates/:id/export",
    {
      config: { access: "TEMPLATE_READ" },
      schema: {
        operationId: "exportTemplate",
        tags,
        summary: "Export a template as JSON (import it with POST /templates/import)",
        params: templateIdParams,
        response: { 200: exportData },
      },
    },
    async (req) => svc.exportOf(req.params.id),
  );
  r.post(
    "/templates/import",
    {
      config: { access: "TEMPLATE_MANAGE", audit: "template.import" },
      schema: {
        operationId: "importTemplate",
        tags,
        summary: "Create a template from an export",
        body: importBody,
        response: { 201: templateResponse },
      },
    },
    async (req, reply) => {
      req.auditInfo.details = { name: req.body.template.name, export_version: req.body.export_version };
      const created = await svc.importFrom(req, req.body, who(req.principal));
      req.auditInfo.resource = `template:${created.id}`;
      return reply.status(201).send(created);
    },
  );
}
