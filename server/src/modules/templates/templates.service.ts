import type { FastifyRequest } from "fastify";
import { InputError, NotFoundError, ConflictError } from "../../http/errors.js";
import { isUniqueViolation } from "../../db/unique-violation.js";
import { BUILTIN_TEMPLATES } from "./templates.builtin.js";
import { checkAppliedNode, checkTemplateConfig } from "./templates.config-check.js";
import type { TemplateFilter, TemplateRow, TemplatesRepo } from "./templates.repo.js";
import {
  EXPORT_VERSION,
  type ApplyTemplateBody,
  type CreateTemplateBody,
  type ImportBody,
  type TemplateNodeType,
  type TemplatePlatform,
  type TemplateResponse,
  type TemplateVariable,
  type UpdateTemplateBody,
} from "./templates.schema.js";
import { checkVariables, mergeConfig, resolveValues, substitute, type Origins } from "./templates.variables.js";

/** Largest stored configuration (JSON text). */
const MAX_CONFIG_BYTES = 256 * 1024;

const parse = <T>(text: string, fallback: T): T => {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

/** The wire shape of a stored template. */
export function toTemplate(r: TemplateRow): TemplateResponse {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    platform: r.platform,
    node_type: r.node_type,
    version: r.version,
    config: parse<Record<string, unknown>>(r.config, {}),
    variables: parse<TemplateVariable[]>(r.variables, []),
    tags: parse<string[]>(r.tags, []),
    is_default: r.is_default === 1,
    is_active: r.is_active === 1,
    usage_count: r.usage_count,
    created_by: r.created_by,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

interface Content {
  platform: TemplatePlatform;
  node_type: TemplateNodeType;
  config: Record<string, unknown>;
  variables?: TemplateVariable[] | undefined;
}

/**
 * Node templates: stored configurations with typed variables that `apply` fills in. The caller's
 * request is passed where a check depends on the role (admin-only node env, as POST /nodes).
 */
export function createTemplatesService(deps: { repo: TemplatesRepo; clock?: () => Date }) {
  const { repo } = deps;
  const now = () => (deps.clock?.() ?? new Date()).toISOString();

  async function found(id: number): Promise<TemplateRow> {
    const row = await repo.get(id);
    if (!row) throw new NotFoundError(`template ${id} does not exist`);
    return row;
  }

  /** The checks every stored template passes (create, update, import). */
  async function checkContent(req: FastifyRequest, c: Content, at = ""): Promise<string> {
    const text = JSON.stringify(c.config);
    if (Buffer.byteLength(text) > MAX_CONFIG_BYTES)
      throw new InputError(`${at}config: larger than ${MAX_CONFIG_BYTES / 1024} KiB`);
    await checkVariables(c.variables ?? [], c.config, at);
    checkTemplateConfig(req, { ...c, variables: c.variables ?? [] }, at);
    return text;
  }

  const unique = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      // Only the one-default index can collide: a concurrent change made another default first.
      if (isUniqueViolation(err))
        throw new ConflictError("is_default: another template became the default at the same time; try again");
      throw err;
    }
  };

  async function create(req: FastifyRequest, body: CreateTemplateBody, createdBy: string): Promise<TemplateResponse> {
    const config = await checkContent(req, body);
    const t = now();
    const row = await unique(() =>
      repo.insert({
        name: body.name,
        description: body.description ?? "",
        platform: body.platform,
        node_type: body.node_type,
        version: body.version,
        config,
        variables: JSON.stringify(body.variables ?? []),
        tags: JSON.stringify(body.tags ?? []),
        is_default: body.is_default ? 1 : 0,
        is_active: 1,
        created_by: createdBy,
        builtin: null,
        created_at: t,
        updated_at: t,
      }),
    );
    return toTemplate(row);
  }

  return {
    create,
    async list(f: TemplateFilter): Promise<TemplateResponse[]> {
      return (await repo.list(f)).map(toTemplate);
    },
    /** Text, platform, node type and tags (a template must carry every tag asked for, any case). */
    async search(f: TemplateFilter & { tags?: string | undefined }): Promise<TemplateResponse[]> {
      const wanted = (f.tags ?? "")
        .split(",")
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean);
      const { tags: _tags, ...filter } = f;
      const rows = (await repo.list(filter)).map(toTemplate);
      return rows.filter((t) => {
        const has = new Set(t.tags.map((x) => x.toLowerCase()));
        return wanted.every((w) => has.has(w));
      });
    },
    async popular(limit: number): Promise<TemplateResponse[]> {
      return (await repo.popular(limit)).map(toTemplate);
    },
    async get(id: number): Promise<TemplateResponse> {
      return toTemplate(await found(id));
    },
    async defaultOf(platform: string, nodeType: string): Promise<TemplateResponse> {
      const row = await repo.defaultOf(platform, nodeType);
      if (!row) throw new NotFoundError(`no default template for ${platform} ${nodeType}`);
      return toTemplate(row);
    },
    async update(req: FastifyRequest, id: number, body: UpdateTemplateBody): Promise<TemplateResponse> {
      const cur = await found(id);
      // Variables left out keep the template's own, and the config is checked against those.
      const config = await checkContent(req, {
        platform: cur.platform as TemplatePlatform,
        node_type: cur.node_type as TemplateNodeType,
        config: body.config,
        variables: body.variables ?? toTemplate(cur).variables,
      });
      const row = await unique(() =>
        repo.update(
          id,
          {
            name: body.name,
            description: body.description ?? cur.description,
            version: body.version,
            config,
            ...(body.variables ? { variables: JSON.stringify(body.variables) } : {}),
            ...(body.tags ? { tags: JSON.stringify(body.tags) } : {}),
          },
          body.is_default,
          now(),
        ),
      );
      if (!row) throw new NotFoundError(`template ${id} does not exist`);
      return toTemplate(row);
    },
    async remove(id: number): Promise<void> {
      if (!(await repo.deactivate(id, now()))) throw new NotFoundError(`template ${id} does not exist`);
    },
    async setDefault(id: number): Promise<TemplateRow> {
      const row = await unique(() => repo.setDefault(id, now()));
      if (!row) throw new NotFoundError(`template ${id} does not exist`);
      return row;
    },
    /**
     * Fills the template with the given values (each checked against its variable), merges the
     * override and, for a node template, checks the result as POST /nodes will. Counts one use.
     */
    async apply(req: FastifyRequest, id: number, body: ApplyTemplateBody): Promise<Record<string, unknown>> {
      if (body.template_id !== undefined && body.template_id !== id)
        throw new InputError(`template_id: ${body.template_id} is not the template in the path (${id})`);
      const t = toTemplate(await found(id));
      const values = await resolveValues(t.variables, body.variables ?? {});
      const origins: Origins = new Map();
      let config = substitute(t.config, values, origins) as Record<string, unknown>;
      if (body.override_config) {
        checkTemplateConfig(
          req,
          {
            platform: t.platform as TemplatePlatform,
            node_type: t.node_type as TemplateNodeType,
            config: body.override_config,
            variables: [],
          },
          "override_",
        );
        config = mergeConfig(config, body.override_config) as Record<string, unknown>;
        for (const k of origins.keys()) if (isOverridden(body.override_config, k)) origins.delete(k);
      }
      checkAppliedNode(req, t.platform as TemplatePlatform, t.node_type as TemplateNodeType, config, origins);
      await repo.countUse(id);
      return config;
    },
    async exportOf(id: number): Promise<{ export_version: string; exported_at: string; template: TemplateResponse }> {
      return { export_version: EXPORT_VERSION, exported_at: now(), template: toTemplate(await found(id)) };
    },
    /** A new template from an export (never default, usage 0, created by the importer). */
    async importFrom(req: FastifyRequest, body: ImportBody, createdBy: string): Promise<TemplateResponse> {
      if (body.export_version.split(".")[0] !== EXPORT_VERSION.split(".")[0])
        throw new InputError(
          `export_version: ${body.export_version} is not a format this console reads (${EXPORT_VERSION})`,
        );
      const tpl = body.template;
      await checkContent(req, tpl, "template.");
      return create(
        req,
        {
          name: tpl.name,
          description: tpl.description,
          platform: tpl.platform,
          node_type: tpl.node_type,
          version: tpl.version,
          config: tpl.config,
          variables: tpl.variables,
          tags: tpl.tags,
        },
        createdBy,
      );
    },
    /** Seeds the built-in templates that were never inserted (a deleted one stays deleted). */
    async seedBuiltins(): Promise<number> {
      let added = 0;
      for (const b of BUILTIN_TEMPLATES) {
        const t = now();
        const inserted = await repo.insertBuiltin({
          name: b.name,
          description: b.description,
          platform: b.platform,
          node_type: b.node_type,
          version: b.version,
          config: JSON.stringify(b.config),
          variables: JSON.stringify(b.variables),
          tags: JSON.stringify(b.tags),
          is_default: 0,
          is_active: 1,
          created_by: "system",
          builtin: b.key,
          created_at: t,
          updated_at: t,
        });
        if (inserted) added++;
      }
      return added;
    },
  };
}

/** Whether an override sets the value at a dotted path (or one of its parents). */
function isOverridden(over: Record<string, unknown>, path: string): boolean {
  let v: unknown = over;
  for (const k of path.split(".")) {
    if (!v || typeof v !== "object") return false;
    if (!(k in v)) return false;
    v = (v as Record<string, unknown>)[k];
    if (!v || typeof v !== "object") return true;
  }
  return true;
}

export type TemplatesService = ReturnType<typeof createTemplatesService>;
