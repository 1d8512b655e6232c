import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import { PLUGIN_NAME_RE, X_SOURCES } from "./plugin-format.js";

export const PLUGIN_STATUSES = ["not-deployed", "deploying", "running", "stopping", "stopped", "error"] as const;
export type PluginStatus = (typeof PLUGIN_STATUSES)[number];

export const nameParams = lazySchema(() =>
  z
    .object({
      name: z
        .string()
        .regex(PLUGIN_NAME_RE, "must be a plugin name (lowercase letters, digits and '-')")
        .describe("Plugin name"),
    })
    .strict(),
);
export const serviceParams = lazySchema(() =>
  z
    .object({
      name: z.string().regex(PLUGIN_NAME_RE, "must be a plugin name").describe("Plugin name"),
      service: z
        .string()
        .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/, "must be a service name")
        .describe("Service name"),
    })
    .strict(),
);
export const logsQuery = lazySchema(() =>
  z
    .object({
      tail: z.coerce.number().int().min(1).max(5000).default(100).describe("Lines from the end of the log"),
      follow: z
        .enum(["true", "false"])
        .optional()
        .describe("Upstream's follow flag; accepted, the lines are returned once (refresh to see more)"),
    })
    .strict(),
);
export const sourceParams = lazySchema(() =>
  z.object({ type: z.enum(X_SOURCES).describe("The x-source kind") }).strict(),
);

/** A plugin document sent as JSON; the YAML text is sent as the body with Content-Type application/yaml. */
export const pluginInput = lazySchema(() =>
  z
    .record(z.string().max(64), z.unknown())
    .describe(
      "The plugin: apiVersion, kind (Plugin), metadata, spec (parameters, processes or dockerCompose, documentation). " +
        "Send JSON, or the YAML itself with Content-Type application/yaml",
    ),
);

export const validateBody = lazySchema(() =>
  z
    .object({ yaml: z.string().max(262_144).describe("The plugin's YAML") })
    .strict()
    .describe("A plugin to check without saving it"),
);

export const deployBody = lazySchema(() =>
  z
    .record(z.string().max(128), z.unknown())
    .describe("Parameter values, checked against spec.parameters; x-source values are ids of the console's resources"),
);

const port = lazySchema(() =>
  z
    .object({
      hostPort: z.string().describe("Port on the host"),
      containerPort: z.string().describe("Port in the container (the same as hostPort for processes)"),
      protocol: z.string().describe("tcp or udp"),
    })
    .meta({ id: "PluginPort" }),
);

export const deploymentStatus = lazySchema(() =>
  z
    .object({
      status: z.enum(PLUGIN_STATUSES).describe("not-deployed, deploying, running, stopping, stopped or error"),
      parameters: z.record(z.string(), z.unknown()).optional().describe("The values of the last deploy, as given"),
      projectName: z.string().describe("Compose project name (the plugin name)"),
      services: z
        .array(
          z.object({
            name: z.string().describe("Service (process or compose service) name"),
            image: z.string().describe("The image (compose) or the command (process)"),
            status: z.string().describe("running, starting, stopped, error, …"),
            createdAt: z.string().describe("When it started"),
            ports: z.array(port).describe("Published ports"),
          }),
        )
        .describe("The plugin's services"),
      startedAt: z.string().optional().describe("When the current deployment started"),
      stoppedAt: z.string().optional().describe("When it was last stopped"),
      error: z.string().optional().describe("Why the last deploy or run failed"),
    })
    .meta({ id: "PluginDeploymentStatus" }),
);
export type DeploymentStatus = z.infer<typeof deploymentStatus>;

const parameterSpec = lazySchema(() =>
  z.looseObject({
    type: z
      .union([z.string(), z.array(z.string())])
      .optional()
      .describe("JSON Schema type"),
    description: z.string().optional().describe("What the parameter is"),
    default: z.unknown().optional().describe("Default value"),
    enum: z.array(z.unknown()).optional().describe("Allowed values"),
    "x-source": z.enum(X_SOURCES).optional().describe("Console resource the value names"),
  }),
);

export const pluginResponse = lazySchema(() =>
  z
    .object({
      apiVersion: z.string().describe("dev.chainlaunch/v1"),
      kind: z.string().describe("Plugin"),
      metadata: z
        .object({
          name: z.string().describe("Plugin name"),
          version: z.string().optional().describe("Version"),
          description: z.string().optional().describe("Description"),
          author: z.string().optional().describe("Author"),
          tags: z.array(z.string()).optional().describe("Tags"),
          repository: z.string().optional().describe("Source repository"),
          license: z.string().optional().describe("License"),
        })
        .describe("Metadata"),
      spec: z
        .object({
          parameters: z
            .looseObject({
              $schema: z.string().optional().describe("JSON Schema dialect"),
              type: z.string().optional().describe("object"),
              properties: z.record(z.string(), parameterSpec).optional().describe("Parameters"),
              required: z.array(z.string()).optional().describe("Required parameters"),
            })
            .describe("JSON Schema of the deploy parameters"),
          processes: z
            .array(z.looseObject({ name: z.string().describe("Service name") }))
            .optional()
            .describe("Processes run by the console (product addition)"),
          dockerCompose: z
            .object({ contents: z.string().describe("docker-compose.yml template") })
            .optional()
            .describe("Docker Compose form (needs Docker)"),
          documentation: z
            .looseObject({
              readme: z.string().optional().describe("README (Markdown)"),
              examples: z.array(z.looseObject({})).optional().describe("Examples"),
              troubleshooting: z.array(z.looseObject({})).optional().describe("Troubleshooting"),
            })
            .optional()
            .describe("Documentation"),
          metrics: z
            .looseObject({
              endpoints: z.array(z.looseObject({})).optional().describe("Metrics endpoints of the plugin's services"),
              dashboard: z.array(z.looseObject({})).optional().describe("Dashboards"),
            })
            .optional()
            .describe("Metrics (upstream's, stored as given)"),
        })
        .describe("Spec"),
      deploymentStatus: deploymentStatus.describe("Deployment status"),
      yaml: z.string().optional().describe("The YAML as saved (on GET /plugins/{name})"),
    })
    .meta({ id: "Plugin" }),
);
export type PluginResponse = z.infer<typeof pluginResponse>;

const problem = lazySchema(() =>
  z.object({
    path: z.string().describe("The field (dotted path)"),
    message: z.string().describe("What is wrong"),
    line: z.number().int().optional().describe("Line in the YAML"),
    column: z.number().int().optional().describe("Column in the YAML"),
  }),
);
export const validateResponse = lazySchema(() =>
  z.object({
    valid: z.boolean().describe("Whether the plugin is valid"),
    errors: z.array(problem).describe("Problems, each with its field and place"),
    plugin: pluginResponse.optional().describe("The parsed plugin when valid"),
  }),
);

export const serviceStatus = lazySchema(() =>
  z
    .object({
      name: z.string().describe("Service name"),
      image: z.string().describe("Image (compose) or command (process)"),
      state: z.string().describe("running, starting, stopped, error, not-deployed"),
      running: z.boolean().describe("Whether it runs"),
      health: z.string().describe("healthy, unhealthy, starting, or empty without a health check"),
      ports: z.array(z.string()).describe("Ports"),
      last_error: z.string().describe("Last error"),
      started_at: z.string().describe("When it started"),
      created_at: z.string().describe("When it was created"),
      containers: z.array(z.string()).describe("Process ids (processes) or container ids (compose)"),
      config: z.record(z.string(), z.unknown()).describe("command, args, working_dir"),
      environment: z.record(z.string(), z.string()).describe("Environment (secret-looking values masked)"),
      depends_on: z.array(z.string()).describe("Services it depends on"),
      volumes: z.array(z.string()).describe("Mounted files"),
    })
    .meta({ id: "PluginServiceStatus" }),
);
export type ServiceStatus = z.infer<typeof serviceStatus>;

export const availableResponse = lazySchema(() =>
  z.object({
    plugins: z
      .array(
        z.object({
          name: z.string().describe("Plugin name"),
          version: z.string().describe("Version"),
          description: z.string().describe("Description"),
          author: z.string().describe("Author"),
          license: z.string().describe("License"),
          tags: z.array(z.string()).describe("Tags"),
          source: z.string().describe("builtin, or the registry index URL"),
          hash: z.string().describe("SHA-256 of raw_yaml"),
          raw_yaml: z.string().describe("The plugin's YAML"),
          created: z.string().describe("When the catalogue entry was read"),
          updated: z.string().describe("When the catalogue entry was read"),
          downloads: z.number().int().describe("Always 0: no central registry counts downloads"),
          rating: z.number().describe("Always 0: no central registry rates plugins"),
          labels: z.record(z.string(), z.string()).describe("Labels (the tags, as tag: 'true')"),
          installed: z.boolean().describe("Whether a plugin of this name is installed"),
        }),
      )
      .describe("Plugins that can be installed"),
    last_updated: z.string().describe("When the list was read"),
    errors: z
      .array(z.object({ source: z.string().describe("Registry"), message: z.string().describe("Problem") }))
      .describe("Registries that could not be read"),
  }),
);

export const sourceOptionsResponse = lazySchema(() =>
  z.object({
    type: z.enum(X_SOURCES).describe("The x-source kind"),
    options: z
      .array(
        z.object({
          value: z.unknown().describe("What to send: an id, or {keyId, orgId} for fabric-key"),
          label: z.string().describe("Name to show"),
          description: z.string().optional().describe("More about it"),
        }),
      )
      .describe("The console's resources of that kind"),
  }),
);

export const resumeResponse = lazySchema(() => z.record(z.string(), z.string()).describe("{status, message}"));
