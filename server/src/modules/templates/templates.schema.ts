import { z } from "zod";
import { dbId, dbIdQuery, lazySchema } from "../../http/schema-helpers.js";

/** Upstream's template platforms; nodes run for FABRIC and BESU, the others are stored only. */
export const TEMPLATE_PLATFORMS = ["FABRIC", "BESU", "ETHEREUM", "BITCOIN", "POLKADOT", "COSMOS"] as const;
/** Upstream's template node types. */
export const TEMPLATE_NODE_TYPES = [
  "peer",
  "orderer",
  "fabric_network",
  "fullnode",
  "validator",
  "archive",
  "besu_network",
  "bootstrap",
  "relay",
  "collator",
  "sentry",
] as const;
export const VARIABLE_TYPES = ["string", "number", "boolean", "array", "object"] as const;
export type TemplatePlatform = (typeof TEMPLATE_PLATFORMS)[number];
export type TemplateNodeType = (typeof TEMPLATE_NODE_TYPES)[number];
export type VariableType = (typeof VARIABLE_TYPES)[number];

const platform = lazySchema(() => z.enum(TEMPLATE_PLATFORMS).describe("Blockchain platform"));
const nodeType = lazySchema(() =>
  z.enum(TEMPLATE_NODE_TYPES).describe("Node (or network) type the template configures"),
);
const templateName = lazySchema(() => z.string().trim().min(1).max(100).describe("Template name"));
const description = lazySchema(() => z.string().max(500).describe("What the template is for"));
const version = lazySchema(() => z.string().trim().min(1).max(32).describe("The template's own version, e.g. 1.0.0"));
const tags = lazySchema(() =>
  z.array(z.string().trim().min(1).max(50)).max(30).describe("Tags, searched by GET /templates/search"),
);
export const templateConfig = lazySchema(() =>
  z
    .record(z.string(), z.unknown())
    .describe(
      "The configuration, with {{variable}} placeholders. For a FABRIC peer or orderer or a BESU node it is a POST /nodes body",
    )
    .meta({ id: "TemplateConfig" }),
);

export const validation = lazySchema(() =>
  z
    .object({
      enum: z.array(z.string().max(200)).max(100).optional().describe("Allowed values (compared as text)"),
      min: z.number().optional().describe("Smallest number"),
      max: z.number().optional().describe("Largest number"),
      min_length: z.number().int().min(0).max(100_000).optional().describe("Shortest text (or fewest array items)"),
      max_length: z.number().int().min(0).max(100_000).optional().describe("Longest text (or most array items)"),
      pattern: z
        .string()
        .max(500)
        .optional()
        .describe("RE2 (Go regexp) the text must match somewhere; anchor it with ^ and $ to match all of it"),
    })
    .describe("Checks a value must pass")
    .meta({ id: "TemplateValidation" }),
);

export const templateVariable = lazySchema(() =>
  z
    .object({
      name: z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, "letters, digits and _ (not first), at most 64")
        .describe("Name used in {{name}} placeholders"),
      type: z.enum(VARIABLE_TYPES).describe('"string", "number", "boolean", "array" or "object"'),
      description: z.string().max(500).optional().describe("What to enter"),
      required: z.boolean().optional().describe("Apply refuses to go on without it (unless it has a default)"),
      default: z.unknown().optional().describe("Value used when apply gives none"),
      validation: validation.optional(),
    })
    .describe("A typed variable of a template")
    .meta({ id: "TemplateVariable" }),
);
export type TemplateVariable = z.infer<typeof templateVariable>;

const variables = lazySchema(() => z.array(templateVariable).max(100).describe("Variables the placeholders name"));

export const createTemplateBody = lazySchema(() =>
  z
    .object({
      name: templateName,
      description: description.optional(),
      platform,
      node_type: nodeType,
      version,
      config: templateConfig,
      variables: variables.optional(),
      tags: tags.optional(),
      is_default: z.boolean().optional().describe("Make it the default of its platform and node type"),
    })
    .describe("A new template"),
);
export type CreateTemplateBody = z.infer<typeof createTemplateBody>;

export const updateTemplateBody = lazySchema(() =>
  z
    .object({
      name: templateName,
      description: description.optional(),
      version,
      config: templateConfig,
      variables: variables.optional(),
      tags: tags.optional(),
      is_default: z.boolean().optional().describe("true makes it the default; false stops it being the default"),
    })
    .describe("A template's new content (platform and node type stay)"),
);
export type UpdateTemplateBody = z.infer<typeof updateTemplateBody>;

export const templateResponse = lazySchema(() =>
  z
    .object({
      id: z.number().int().describe("Template id"),
      name: z.string().describe("Name"),
      description: z.string().describe("Description"),
      platform: z.string().describe("Platform"),
      node_type: z.string().describe("Node type"),
      version: z.string().describe("Version"),
      config: z.record(z.string(), z.unknown()).describe("Configuration with {{variable}} placeholders"),
      variables: z.array(templateVariable).describe("Variables"),
      tags: z.array(z.string()).describe("Tags"),
      is_default: z.boolean().describe("The default of its platform and node type"),
      is_active: z.boolean().describe("False once deleted"),
      usage_count: z.number().int().describe("How often it was applied"),
      created_by: z.string().describe("Who created it (system for built-in templates)"),
      created_at: z.string().describe("Creation time"),
      updated_at: z.string().describe("Last change"),
    })
    .describe("A node template")
    .meta({ id: "Template" }),
);
export type TemplateResponse = z.infer<typeof templateResponse>;
export const templateList = lazySchema(() => z.array(templateResponse).describe("Templates"));

export const applyTemplateBody = lazySchema(() =>
  z
    .object({
      template_id: dbId().optional().describe("The template (the path's id; when given it must be the same)"),
      variables: z.record(z.string().max(64), z.unknown()).optional().describe("Values of the template's variables"),
      override_config: z
        .record(z.string(), z.unknown())
        .optional()
        .describe("Merged over the generated configuration (objects merge, other values replace)"),
      context: z
        .record(z.string().max(64), z.unknown())
        .optional()
        .describe("Accepted for upstream's clients (networkID, orgID…); not used"),
    })
    .describe("Values to fill a template with"),
);
export type ApplyTemplateBody = z.infer<typeof applyTemplateBody>;
export const appliedConfig = lazySchema(() =>
  z.record(z.string(), z.unknown()).describe("The generated configuration (for node templates, a POST /nodes body)"),
);

export const EXPORT_VERSION = "1.0";
/** What an export holds: the template as GET returns it. Import reads what it needs of it. */
export const exportData = lazySchema(() =>
  z
    .object({
      export_version: z.string().describe(`Format version (${EXPORT_VERSION})`),
      exported_at: z.string().describe("When it was exported"),
      template: templateResponse,
    })
    .describe("A template exported for backup or sharing")
    .meta({ id: "TemplateExportData" }),
);

export const importBody = lazySchema(() =>
  z
    .object({
      export_version: z.string().max(16).describe(`Format version; ${EXPORT_VERSION} is read`),
      exported_at: z.string().max(64).optional().describe("When it was exported (informational)"),
      template: z
        .object({
          id: z.number().int().optional().describe("Ignored: the import gets a new id"),
          name: templateName,
          description: description.optional(),
          platform,
          node_type: nodeType,
          version,
          config: templateConfig,
          variables: variables.optional(),
          tags: tags.optional(),
          is_default: z.boolean().optional().describe("Ignored: an import is never the default at once"),
          is_active: z.boolean().optional().describe("Ignored"),
          usage_count: z.number().int().optional().describe("Ignored: starts at 0"),
          created_by: z.string().max(100).optional().describe("Ignored: the importer is recorded"),
          created_at: z.string().max(64).optional().describe("Ignored"),
          updated_at: z.string().max(64).optional().describe("Ignored"),
        })
        .describe("The template"),
    })
    .describe("An exported template to import"),
);
export type ImportBody = z.infer<typeof importBody>;

export const templateIdParams = lazySchema(() => z.object({ id: dbIdQuery().describe("Template id") }).strict());
export const listQuery = lazySchema(() =>
  z.object({ platform: platform.optional(), node_type: nodeType.optional() }).describe("Filters"),
);
export const searchQuery = lazySchema(() =>
  z
    .object({
      query: z.string().max(200).optional().describe("Text in the name or description (case-insensitive)"),
      platform: platform.optional(),
      node_type: nodeType.optional(),
      tags: z.string().max(500).optional().describe("Comma-separated tags; a template must have all of them"),
    })
    .describe("Search criteria"),
);
export const popularQuery = lazySchema(() =>
  z
    .object({
      limit: z.coerce.number().int().min(1).max(100).default(10).describe("How many (default 10, at most 100)"),
    })
    .describe("Popular templates"),
);
export const platformParams = lazySchema(() => z.object({ platform }).strict());
export const defaultParams = lazySchema(() => z.object({ platform, nodeType }).strict());
export const messageResponse = lazySchema(() => z.record(z.string(), z.string()).describe("A message"));
