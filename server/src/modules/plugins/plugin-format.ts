import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { isScalar, LineCounter, parseDocument, stringify, type Document, type Node as YamlNode } from "yaml";
import { parseTemplate, TemplateError, templateFields } from "./template.js";

/** Where a plugin's parameters come from in the console (the `x-source` keyword). */
export const X_SOURCES = ["fabric-peer", "fabric-key", "key", "fabric-org", "fabric-network", "besu-node"] as const;
export type XSource = (typeof X_SOURCES)[number];

export const PLUGIN_NAME_RE = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const SERVICE_NAME_RE = /^[a-z0-9][a-z0-9_-]{0,62}$/;

export interface ParameterProperty {
  type?: string | string[];
  title?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  "x-source"?: XSource;
  items?: { type?: string };
  [k: string]: unknown;
}

export interface PluginProcess {
  name: string;
  command: string;
  args?: string[];
  env?: Record<string, string>;
  workingDir?: string;
  ports?: { name?: string; port: string | number; protocol?: string }[];
  healthCheck?: { type: "http" | "tcp"; port: string | number; path?: string; host?: string; timeoutSeconds?: number };
}

export interface PluginDoc {
  apiVersion: string;
  kind: "Plugin";
  metadata: {
    name: string;
    version?: string;
    description?: string;
    author?: string;
    tags?: string[];
    repository?: string;
    license?: string;
  };
  spec: {
    parameters: {
      $schema?: string;
      type?: string;
      properties?: Record<string, ParameterProperty>;
      required?: string[];
      [k: string]: unknown;
    };
    processes?: PluginProcess[];
    dockerCompose?: { contents: string };
    documentation?: {
      readme?: string;
      examples?: { name?: string; description?: string; parameters?: Record<string, unknown> }[];
      troubleshooting?: { problem?: string; description?: string; solution?: string }[];
    };
    metrics?: {
      endpoints?: { service?: string; port: string | number; path?: string; interval?: string; jobName?: string }[];
      [k: string]: unknown;
    };
  };
}

/** One problem with a plugin document: the field's path, and its place in the YAML when known. */
export interface PluginProblem {
  path: string;
  message: string;
  line?: number;
  column?: number;
}

export class PluginFormatError extends Error {
  constructor(public readonly problems: PluginProblem[]) {
    super(problems.map(describeProblem).join("; "));
    this.name = "PluginFormatError";
  }
}

export function describeProblem(p: PluginProblem): string {
  const where = p.line ? ` (line ${p.line}, column ${p.column ?? 1})` : "";
  return `${p.path ? `${p.path}: ` : ""}${p.message}${where}`;
}

const str = { type: "string", maxLength: 4096 };
const templ = { type: ["string", "number"] };
/** The shape of a plugin document (upstream's types.Plugin plus `spec.processes`). */
const DOC_SCHEMA = {
  type: "object",
  required: ["apiVersion", "kind", "metadata", "spec"],
  properties: {
    apiVersion: { type: "string", minLength: 1, maxLength: 128 },
    kind: { const: "Plugin" },
    metadata: {
      type: "object",
      required: ["name"],
      properties: {
        name: { type: "string", pattern: PLUGIN_NAME_RE.source },
        version: { type: ["string", "number"] },
        description: str,
        author: str,
        tags: { type: "array", maxItems: 32, items: { type: "string", maxLength: 64 } },
        repository: str,
        license: str,
      },
    },
    spec: {
      type: "object",
      required: ["parameters"],
      properties: {
        parameters: {
          type: "object",
          properties: {
            type: { const: "object" },
            properties: { type: "object", maxProperties: 100 },
            required: { type: "array", items: { type: "string" } },
          },
        },
        processes: {
          type: "array",
          minItems: 1,
          maxItems: 16,
          items: {
            type: "object",
            required: ["name", "command"],
            additionalProperties: false,
            properties: {
              name: { type: "string", pattern: SERVICE_NAME_RE.source },
              command: { type: "string", minLength: 1, maxLength: 1024 },
              args: { type: "array", maxItems: 256, items: templ },
              env: {
                type: "object",
                additionalProperties: templ,
                propertyNames: { pattern: "^[A-Za-z_][A-Za-z0-9_]*$" },
              },
              workingDir: str,
              ports: {
                type: "array",
                maxItems: 16,
                items: {
                  type: "object",
                  required: ["port"],
                  additionalProperties: false,
                  properties: { name: str, port: templ, protocol: { enum: ["tcp", "udp"] } },
                },
              },
              healthCheck: {
                type: "object",
                required: ["type", "port"],
                additionalProperties: false,
                properties: {
                  type: { enum: ["http", "tcp"] },
                  port: templ,
                  path: str,
                  host: str,
                  timeoutSeconds: { type: "number", minimum: 1, maximum: 600 },
                },
              },
            },
          },
        },
        dockerCompose: {
          type: "object",
          required: ["contents"],
          properties: { contents: { type: "string", minLength: 1, maxLength: 262_144 } },
        },
        documentation: { type: "object" },
        metrics: {
          type: "object",
          properties: {
            endpoints: {
              type: "array",
              maxItems: 16,
              items: {
                type: "object",
                required: ["port"],
                properties: {
                  service: str,
                  port: templ,
                  path: str,
                  interval: { type: "string", pattern: "^\\d{1,5}(ms|s|m|h)$" },
                  jobName: { type: "string", pattern: "^[a-zA-Z_][a-zA-Z0-9_-]{0,62}$" },
                },
              },
            },
          },
        },
      },
    },
  },
} as const;

let shared: Ajv | undefined;
/**
 * One Ajv for plugin documents and parameter schemas: `x-source` is a keyword with its own vocabulary.
 * Made on first use: compiling its meta-schemas took ~40 ms of every start-up.
 */
function ajv(): Ajv {
  if (shared) return shared;
  shared = new Ajv({ allErrors: true, strict: false, useDefaults: true, coerceTypes: true });
  shared.addKeyword({ keyword: "x-source", metaSchema: { enum: [...X_SOURCES] } });
  return shared;
}
let docValidator: ValidateFunction | undefined;

const pathOf = (instancePath: string, prefix: string): string =>
  [
    prefix,
    ...instancePath
      .split("/")
      .slice(1)
      .map((seg) => seg.replace(/~1/g, "/").replace(/~0/g, "~")),
  ]
    .filter(Boolean)
    .map((seg, i) => (/^\d+$/.test(seg) ? `[${seg}]` : i === 0 ? seg : `.${seg}`))
    .join("");

/** Ajv's errors as problems with dotted paths (`parameters.port: must be integer`). */
export function ajvProblems(errors: ErrorObject[] | null | undefined, prefix: string): PluginProblem[] {
  return (errors ?? []).map((e) => {
    if (e.keyword === "required") {
      const missing = (e.params as { missingProperty: string }).missingProperty;
      return { path: pathOf(`${e.instancePath}/${missing}`, prefix), message: "is required" };
    }
    if (e.keyword === "additionalProperties") {
      const extra = (e.params as { additionalProperty: string }).additionalProperty;
      return { path: pathOf(`${e.instancePath}/${extra}`, prefix), message: "is not a known field" };
    }
    const allowed = (e.params as { allowedValues?: unknown[] }).allowedValues;
    return {
      path: pathOf(e.instancePath, prefix),
      message: allowed
        ? `must be one of ${allowed.map((v) => JSON.stringify(v)).join(", ")}`
        : (e.message ?? "is invalid"),
    };
  });
}

/** Every string of a plugin that is a template, with its path. */
function templatedStrings(doc: PluginDoc): { path: (string | number)[]; text: string }[] {
  const out: { path: (string | number)[]; text: string }[] = [];
  doc.spec.processes?.forEach((p, i) => {
    const base = ["spec", "processes", i];
    out.push({ path: [...base, "command"], text: p.command });
    p.args?.forEach((a, j) => out.push({ path: [...base, "args", j], text: String(a) }));
    for (const [k, v] of Object.entries(p.env ?? {})) out.push({ path: [...base, "env", k], text: String(v) });
    if (p.workingDir) out.push({ path: [...base, "workingDir"], text: p.workingDir });
    p.ports?.forEach((port, j) => out.push({ path: [...base, "ports", j, "port"], text: String(port.port) }));
    if (p.healthCheck) {
      out.push({ path: [...base, "healthCheck", "port"], text: String(p.healthCheck.port) });
      if (p.healthCheck.path) out.push({ path: [...base, "healthCheck", "path"], text: p.healthCheck.path });
    }
  });
  if (doc.spec.dockerCompose)
    out.push({ path: ["spec", "dockerCompose", "contents"], text: doc.spec.dockerCompose.contents });
  doc.spec.metrics?.endpoints?.forEach((m, i) => {
    out.push({ path: ["spec", "metrics", "endpoints", i, "port"], text: String(m.port) });
    if (m.path) out.push({ path: ["spec", "metrics", "endpoints", i, "path"], text: m.path });
  });
  return out;
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));
/** `.runtime.*` a template may use; nodeImage is the Node.js image the console builds for compose files. */
const RUNTIME_FIELDS = ["node", "builtins", "dir", "nodeImage"];
const dotted = (path: (string | number)[]): string =>
  path.map((seg, i) => (typeof seg === "number" ? `[${seg}]` : i === 0 ? seg : `.${seg}`)).join("");

/** The checks a JSON Schema validator can't make: one way to run, unique names, templates that parse and refer to real parameters. */
function semanticProblems(
  doc: PluginDoc,
): { path: (string | number)[]; message: string; offset?: { line: number; column: number } }[] {
  const out: { path: (string | number)[]; message: string; offset?: { line: number; column: number } }[] = [];
  const spec = doc.spec;
  if (!!spec.processes === !!spec.dockerCompose)
    out.push({
      path: ["spec"],
      message: "needs exactly one of 'processes' (run as supervised processes) and 'dockerCompose'",
    });
  const names = new Set<string>();
  spec.processes?.forEach((p, i) => {
    if (names.has(p.name)) out.push({ path: ["spec", "processes", i, "name"], message: `'${p.name}' is used twice` });
    names.add(p.name);
  });
  spec.metrics?.endpoints?.forEach((m, i) => {
    if (spec.processes && m.service !== undefined && !names.has(m.service))
      out.push({
        path: ["spec", "metrics", "endpoints", i, "service"],
        message: `'${m.service}' is not one of the processes`,
      });
  });
  const props = spec.parameters.properties ?? {};
  spec.parameters.required?.forEach((r, i) => {
    if (!(r in props))
      out.push({ path: ["spec", "parameters", "required", i], message: `'${r}' is not one of the properties` });
  });
  const schemaOk = ajv().validateSchema(withoutDialect(spec.parameters));
  if (!schemaOk)
    for (const p of ajvProblems(ajv().errors, ""))
      out.push({
        path: ["spec", "parameters", ...p.path.split(/\.|\[|\]/).filter(Boolean)],
        message: `not a valid JSON Schema: ${p.message}`,
      });
  for (const [name, prop] of Object.entries(props)) {
    const src = (prop ?? {})["x-source"];
    if (src !== undefined && !(X_SOURCES as readonly unknown[]).includes(src))
      out.push({
        path: ["spec", "parameters", "properties", name, "x-source"],
        message: `must be one of ${X_SOURCES.join(", ")}`,
      });
  }
  if (schemaOk && !out.length) {
    try {
      ajv().compile(withoutDialect(spec.parameters));
    } catch (e) {
      out.push({ path: ["spec", "parameters"], message: `not a valid JSON Schema: ${errorText(e)}` });
    }
  }
  for (const { path, text } of templatedStrings(doc)) {
    try {
      parseTemplate(text);
      for (const f of templateFields(text)) {
        const [root, second] = f;
        const ok =
          (root === "parameters" && (second === undefined || second in props)) ||
          (root === "runtime" && (second === undefined || RUNTIME_FIELDS.includes(second))) ||
          (root === "plugin" && (second === undefined || second === "name")) ||
          (root === "volumeMounts" && path[1] === "dockerCompose");
        if (!ok)
          out.push({
            path,
            message: `template refers to .${f.join(".")}, which is not defined${root === "parameters" ? " in spec.parameters.properties" : ""}`,
          });
      }
    } catch (e) {
      if (!(e instanceof TemplateError)) throw e;
      out.push({
        path,
        message: `template: ${e.message.replace(/^line \d+, column \d+: /, "")}`,
        offset: { line: e.line, column: e.column },
      });
    }
  }
  return out;
}

/** Line and column of the value at `path` in a parsed YAML document, plus an offset inside a string value. */
function locate(
  doc: Document,
  lc: LineCounter,
  path: (string | number)[],
  inner?: { line: number; column: number },
): { line: number; column: number } | undefined {
  let node: unknown;
  for (let n = path.length; n >= 0; n--) {
    node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
    if (node) {
      if (n < path.length) inner = undefined;
      break;
    }
  }
  const range = (node as YamlNode | undefined)?.range;
  if (!range) return undefined;
  const at = lc.linePos(range[0]);
  if (!inner || !isScalar(node)) return { line: at.line, column: at.col };
  if (node.type === "BLOCK_LITERAL" || node.type === "BLOCK_FOLDED") {
    const firstContent = lc.linePos(range[0]).line + 1;
    const indent = (doc.toString().split("\n")[firstContent - 1] ?? "").match(/^\s*/)?.[0].length ?? 0;
    return { line: firstContent + inner.line - 1, column: indent + inner.column };
  }
  const quoted = node.type === "QUOTE_DOUBLE" || node.type === "QUOTE_SINGLE" ? 1 : 0;
  return inner.line === 1
    ? { line: at.line, column: at.col + quoted + inner.column - 1 }
    : { line: at.line + inner.line - 1, column: inner.column };
}

function checkDoc(
  value: unknown,
  where: (
    path: (string | number)[],
    inner?: { line: number; column: number },
  ) => { line: number; column: number } | undefined,
): PluginDoc {
  docValidator ??= ajv().compile(DOC_SCHEMA);
  const copy = structuredClone(value);
  if (!docValidator(copy)) {
    throw new PluginFormatError(
      ajvProblems(docValidator.errors, "").map((p) => ({
        ...p,
        ...where(
          p.path
            .split(/\.|\[|\]/)
            .filter(Boolean)
            .map((s) => (/^\d+$/.test(s) ? Number(s) : s)),
        ),
      })),
    );
  }
  const doc = value as PluginDoc;
  if (typeof doc.metadata.version === "number") doc.metadata.version = String(doc.metadata.version);
  const problems = semanticProblems(doc);
  if (problems.length)
    throw new PluginFormatError(
      problems.map((p) => ({ path: dotted(p.path), message: p.message, ...where(p.path, p.offset) })),
    );
  return doc;
}

/** Parses and validates a plugin's YAML; problems carry line and column. */
export function parsePluginYaml(text: string): PluginDoc {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length) {
    throw new PluginFormatError(
      doc.errors.map((e) => {
        const pos = e.linePos?.[0];
        return {
          path: "",
          message: `YAML: ${e.message.split("\n")[0]!.replace(/ at line \d+, column \d+.*$/, "")}`,
          line: pos?.line,
          column: pos?.col,
        };
      }),
    );
  }
  const value: unknown = doc.toJS({ maxAliasCount: 100 });
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new PluginFormatError([
      { path: "", message: "a plugin is a YAML mapping with apiVersion, kind, metadata and spec", line: 1, column: 1 },
    ]);
  return checkDoc(value, (path, inner) => locate(doc, lc, path, inner));
}

/** Validates a plugin given as JSON (upstream's clients); problems name the field. */
export function parsePluginJson(value: unknown): PluginDoc {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new PluginFormatError([
      { path: "", message: "a plugin is an object with apiVersion, kind, metadata and spec" },
    ]);
  // Clients echo the read shape back: its deployment status and YAML are not part of the definition.
  const { deploymentStatus: _status, yaml: _yaml, ...doc } = value as Record<string, unknown>;
  return checkDoc(doc, () => undefined);
}

/** The YAML kept for a plugin created from JSON. */
export function pluginToYaml(doc: PluginDoc): string {
  return stringify(doc, { lineWidth: 0 });
}

/** The parameter schema without `$schema`: every dialect is read with draft-07's vocabulary (upstream's). */
function withoutDialect(schema: PluginDoc["spec"]["parameters"]): object {
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}

const valueValidators = new WeakMap<object, ValidateFunction>();
/**
 * Checks deployment values against the plugin's parameter schema (defaults applied, "8080" read as
 * 8080 where a number is asked); problems are named `parameters.<field>`.
 */
export function checkParameterValues(doc: PluginDoc, values: unknown): Record<string, unknown> {
  let validate = valueValidators.get(doc.spec.parameters);
  if (!validate) {
    validate = ajv().compile(withoutDialect(doc.spec.parameters));
    valueValidators.set(doc.spec.parameters, validate);
  }
  const copy = structuredClone(values ?? {});
  if (!validate(copy)) throw new PluginFormatError(ajvProblems(validate.errors, "parameters"));
  return copy as Record<string, unknown>;
}
