import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  defaultParams,
  listQuery,
  platformParams,
  popularQuery,
  searchQuery,
  templateIdParams,
  templateList,
  templateResponse,
} from "./templates.schema.js";
import type { TemplatesService } from "./templates.service.js";

export const tags = ["Templates"];

/** Reading templates: anyone signed in (TEMPLATE_READ). */
export function registerTemplateReadRoutes(app: FastifyInstance, svc: TemplatesService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/templates",
    {
      config: { access: "TEMPLATE_READ" },
      schema: {
        operationId: "listTemplates",
        tags,
        summary: "List active templates, optionally of one platform and node type",
        querystring: listQuery,
        response: { 200: templateList },
      },
    },
    async (req) => svc.list(req.query),
  );
  r.get(
    "/templates/search",
    {
      config: { access: "TEMPLATE_READ" },
      schema: {
        operationId: "searchTemplates",
        tags,
        summary: "Search templates by text (name, description), platform, node type and tags",
        querystring: searchQuery,
        response: { 200: templateList },
      },
    },
    async (req) => svc.search({ ...req.query, text: req.query.query }),
  );
  r.get(
    "/templates/popular",
    {
      config: { access: "TEMPLATE_READ" },
      schema: {
        operationId: "getPopularTemplates",
        tags,
        summary: "The most applied templates, most used first",
        querystring: popularQuery,
        response: { 200: templateList },
      },
    },
    async (req) => svc.popular(req.query.limit),
  );
  r.get(
    "/templates/platforms/:platform",
    {
      config: { access: "TEMPLATE_READ" },
      schema: {
        operationId: "listTemplatesByPlatform",
        tags,
        summary: "Templates of one platform",
        params: platformParams,
        response: { 200: templateList },
      },
    },
    async (req) => svc.list({ platform: req.params.platform }),
  );
  r.get(
    "/templates/platforms/:platform/:nodeType/default",
    {
      config: { access: "TEMPLATE_READ" },
      schema: {
        operationId: "getDefaultTemplate",
        tags,
        summary: "The default template of a platform and node type (404 when there is none)",
        params: defaultParams,
        response: { 200: templateResponse },
      },
    },
    async (req) => svc.defaultOf(req.params.platform, req.params.nodeType),
  );
  r.get(
    "/templates/:id",
    {
      config: { access: "TEMPLATE_READ" },
      schema: {
        operationId: "getTemplate",
        tags,
        summary: "Get a template",
        params: templateIdParams,
        response: { 200: templateResponse },
      },
    },
    async (req) => svc.get(req.params.id),
  );
}
