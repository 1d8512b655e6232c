/**
 * Plugin types, written from docs/plugins-design (issue 15) until the server's OpenAPI carries
 * /plugins; then they become `ResponseOf<...>` aliases like the other resources.
 */

/** Where a parameter's value comes from in the console (the `x-source` keyword). */
export type XSource = "fabric-peer" | "fabric-key" | "key" | "fabric-org" | "fabric-network" | "besu-node";

/** One property of a plugin's parameter schema (JSON Schema draft-07, plus `x-source`). */
export interface ParameterProperty {
  type?: string | string[];
  title?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  items?: { type?: string | string[]; enum?: unknown[] };
  minimum?: number;
  maximum?: number;
  "x-source"?: XSource;
  [k: string]: unknown;
}

export interface ParameterSchema {
  $schema?: string;
  type?: string;
  properties?: Record<string, ParameterProperty>;
  required?: string[];
  [k: string]: unknown;
}

export interface PluginProcess {
  name: string;
  command: string;
  args?: string[];
  env?: Record<string, string>;
  workingDir?: string;
  ports?: { name?: string; port: string | number; protocol?: string }[];
  healthCheck?: { type: "http" | "tcp"; port: string | number; path?: string };
}

export interface PluginMetadata {
  name: string;
  version?: string;
  description?: string;
  author?: string;
  tags?: string[];
  repository?: string;
  license?: string;
}

export interface PluginDocumentation {
  readme?: string;
  examples?: { name?: string; description?: string; parameters?: Record<string, unknown> }[];
  troubleshooting?: { problem?: string; description?: string; solution?: string }[];
}

export type DeploymentState = "not-deployed" | "deploying" | "running" | "stopping" | "stopped" | "error";

export interface DeploymentService {
  name: string;
  image?: string;
  status: string;
  createdAt?: string;
  ports?: { hostPort?: number | string; containerPort?: number | string; protocol?: string }[];
}

export interface DeploymentStatus {
  status: DeploymentState;
  parameters?: Record<string, unknown> | null;
  projectName?: string;
  services?: DeploymentService[];
  startedAt?: string | null;
  stoppedAt?: string | null;
  error?: string | null;
}

export interface Plugin {
  apiVersion: string;
  kind: "Plugin";
  metadata: PluginMetadata;
  spec: {
    parameters: ParameterSchema;
    processes?: PluginProcess[];
    dockerCompose?: { contents: string };
    documentation?: PluginDocumentation;
    metrics?: Record<string, unknown>;
  };
  deploymentStatus?: DeploymentStatus;
  /** The source text as saved (GET /plugins/{name} only). */
  yaml?: string;
}

/** GET /plugins/{name}/services: one process (or compose service) of a deployed plugin. */
export interface PluginService {
  name: string;
  image?: string;
  state: string;
  running: boolean;
  health?: string;
  ports: string[];
  last_error?: string | null;
  started_at?: string | null;
  created_at?: string | null;
  containers?: (number | string)[];
  config?: { command?: string; args?: string[]; working_dir?: string };
  environment?: Record<string, string>;
}

export interface AvailablePlugin {
  name: string;
  version?: string;
  description?: string;
  author?: string;
  tags?: string[];
  license?: string;
  source: string;
  hash?: string;
  raw_yaml: string;
  installed?: boolean;
}

export interface AvailablePlugins {
  plugins: AvailablePlugin[];
  last_updated?: string | null;
  errors?: { source: string; message: string }[];
}

/** One problem of a plugin document: the field's path and, for YAML, its place. */
export interface PluginProblem {
  path: string;
  message: string;
  line?: number;
  column?: number;
}

export interface ValidateResult {
  valid: boolean;
  errors: PluginProblem[];
  plugin?: Plugin;
}

export interface SourceOption {
  /** A node, organization or network id; `{keyId, orgId}` for fabric-key. */
  value: unknown;
  label: string;
  description?: string;
}

export interface SourceOptions {
  type: XSource;
  options: SourceOption[];
}
