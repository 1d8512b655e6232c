import { isApiError } from "@/api/errors";
import type { ParameterProperty, ParameterSchema, XSource } from "@/data/plugins/types";

/**
 * The deploy form of a plugin, generated from its parameter schema (JSON Schema draft-07 plus
 * `x-source`). Pure: the page renders the fields and keeps the raw values; this module turns them
 * into the values object the server checks against the same schema.
 */

export type FieldKind =
  "text" | "select" | "number" | "integer" | "boolean" | "string-list" | "multi-select" | "json" | "source";

export interface ParamField {
  /** The property's name: the key in the values object. */
  name: string;
  /** The property's title, else its name. */
  label: string;
  description?: string;
  required: boolean;
  kind: FieldKind;
  /** Choices of `select` and `multi-select` (the schema's enum), keyed by their JSON. */
  options?: { key: string; label: string }[];
  /** `source`: where the choices come from (GET /plugins/sources/{type}). */
  source?: XSource;
  /** `source`: an array property takes several choices. */
  multiple?: boolean;
  minimum?: number;
  maximum?: number;
}

/** What a field holds while the user edits: text, a checkbox, or the keys of chosen options. */
export type RawValue = string | boolean | string[];
export type RawValues = Record<string, RawValue>;

/** JSON with object keys sorted, so equal values (e.g. `{keyId, orgId}`) get equal keys. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const obj = value as Record<string, unknown>;
    return `{${Object.keys(obj)
      .sort()
      .filter((k) => obj[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableJson(obj[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The first type of a property that is not "null" (draft-07 allows a list). */
function typeOf(t: ParameterProperty["type"]): string | undefined {
  if (Array.isArray(t)) return t.find((x) => x !== "null");
  return t;
}

function enumOptions(values: unknown[]): { key: string; label: string }[] {
  return values.map((v) => ({ key: stableJson(v), label: typeof v === "string" ? v : JSON.stringify(v) }));
}

function kindOf(p: ParameterProperty): Pick<ParamField, "kind" | "options" | "source" | "multiple"> {
  const type = typeOf(p.type);
  if (p["x-source"]) return { kind: "source", source: p["x-source"], multiple: type === "array" };
  if (Array.isArray(p.enum) && p.enum.length > 0) return { kind: "select", options: enumOptions(p.enum) };
  switch (type) {
    case "integer":
      return { kind: "integer" };
    case "number":
      return { kind: "number" };
    case "boolean":
      return { kind: "boolean" };
    case "array": {
      const items: Record<string, unknown> = typeof p.items === "object" && p.items !== null ? { ...p.items } : {};
      if (Array.isArray(items.enum) && items.enum.length > 0)
        return { kind: "multi-select", options: enumOptions(items.enum) };
      const itemType = typeOf(
        typeof items.type === "string" || Array.isArray(items.type) ? (items.type as string | string[]) : undefined,
      );
      return itemType === undefined || itemType === "string" ? { kind: "string-list" } : { kind: "json" };
    }
    case "object":
      return { kind: "json" };
    default:
      return { kind: "text" };
  }
}

/** One field per property, in the schema's order. */
export function fieldsOf(schema: ParameterSchema | undefined): ParamField[] {
  const required = new Set(schema?.required ?? []);
  return Object.entries(schema?.properties ?? {}).map(([name, p]) => ({
    name,
    label: typeof p.title === "string" && p.title.trim() ? p.title : name,
    ...(typeof p.description === "string" && p.description ? { description: p.description } : {}),
    required: required.has(name),
    ...kindOf(p),
    ...(typeof p.minimum === "number" ? { minimum: p.minimum } : {}),
    ...(typeof p.maximum === "number" ? { maximum: p.maximum } : {}),
  }));
}

/** A field's starting value: the schema's default in the field's raw form, else empty. */
function rawDefault(f: ParamField, d: unknown): RawValue {
  switch (f.kind) {
    case "boolean":
      return d === true;
    case "multi-select":
      return Array.isArray(d) ? d.map(stableJson) : [];
    case "source":
      if (f.multiple) return Array.isArray(d) ? d.map(stableJson) : [];
      return d === undefined || d === null ? "" : stableJson(d);
    case "select":
      return d === undefined ? "" : stableJson(d);
    case "string-list":
      return Array.isArray(d) ? d.map(String).join("\n") : "";
    case "json":
      return d === undefined ? "" : JSON.stringify(d, null, 2);
    default:
      return d === undefined || d === null ? "" : String(d);
  }
}

/** The form's starting values, defaults prefilled. */
export function initialValues(schema: ParameterSchema | undefined): RawValues {
  const props = schema?.properties ?? {};
  return Object.fromEntries(fieldsOf(schema).map((f) => [f.name, rawDefault(f, props[f.name]?.default)]));
}

function isEmpty(v: RawValue | undefined): boolean {
  if (v === undefined) return true;
  if (typeof v === "string") return v.trim() === "";
  if (Array.isArray(v)) return v.length === 0;
  return false;
}

type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

function parseField(f: ParamField, raw: RawValue): Parsed {
  const text = typeof raw === "string" ? raw.trim() : "";
  switch (f.kind) {
    case "boolean":
      return { ok: true, value: raw === true };
    case "integer":
    case "number": {
      const n = Number(text);
      if (!Number.isFinite(n)) return { ok: false, message: "must be a number" };
      if (f.kind === "integer" && !Number.isInteger(n)) return { ok: false, message: "must be a whole number" };
      if (f.minimum !== undefined && n < f.minimum) return { ok: false, message: `must be at least ${f.minimum}` };
      if (f.maximum !== undefined && n > f.maximum) return { ok: false, message: `must be at most ${f.maximum}` };
      return { ok: true, value: n };
    }
    case "string-list":
      return {
        ok: true,
        value: text
          .split("\n")
          .map((s) => s.trim())
          .filter(Boolean),
      };
    case "json":
      try {
        return { ok: true, value: JSON.parse(text) as unknown };
      } catch {
        return { ok: false, message: "must be valid JSON" };
      }
    case "select":
    case "multi-select":
    case "source":
      try {
        const keys = Array.isArray(raw) ? raw : [text];
        const values = keys.map((k) => JSON.parse(k) as unknown);
        return { ok: true, value: Array.isArray(raw) ? values : values[0] };
      } catch {
        return { ok: false, message: "is not one of the choices" };
      }
    default:
      return { ok: true, value: typeof raw === "string" ? raw : String(raw) };
  }
}

/**
 * The values object to deploy with, or the fields the user must fix first (required ones left empty,
 * numbers and JSON that don't parse). Empty optional fields are left out, so the server's schema
 * defaults apply; an unchecked box is sent as false.
 */
export function valuesFrom(
  fields: readonly ParamField[],
  raw: RawValues,
): { values: Record<string, unknown>; errors: Record<string, string> } {
  const values: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const v = raw[f.name];
    if (f.kind !== "boolean" && isEmpty(v)) {
      if (f.required) errors[f.name] = `${f.label} is required`;
      continue;
    }
    const parsed = parseField(f, v ?? "");
    if (parsed.ok) values[f.name] = parsed.value;
    else errors[f.name] = `${f.label} ${parsed.message}`;
  }
  return { values, errors };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null;
}

/** The parameter a problem's path names (`parameters.key.keyId` → `key`), if it is one of the fields. */
function fieldOfPath(path: string, names: ReadonlySet<string>): string | undefined {
  const m = /^parameters[.[]([^.[\]]+)/.exec(path.trim());
  const name = m?.[1];
  return name !== undefined && names.has(name) ? name : undefined;
}

export interface DeployErrors {
  /** Field name → the server's message about it. */
  fields: Record<string, string>;
  /** Problems that name no field of the form. */
  top: string[];
  /** The log tail of a process that did not start. */
  log?: string;
}

/**
 * Where a failed deploy's problems go: next to the field a `parameters.<name>: …` problem names,
 * the rest at the top. Reads `details.errors` when the server lists them, else the message (problems
 * joined by "; ").
 */
export function deployErrorsFrom(error: unknown, fields: readonly ParamField[]): DeployErrors {
  const names = new Set(fields.map((f) => f.name));
  const out: DeployErrors = { fields: {}, top: [] };
  const message = error instanceof Error ? error.message : String(error);
  if (!isApiError(error) || error.status !== 400) {
    out.top.push(message || "The deployment failed");
    return out;
  }
  const body = isRecord(error.body) ? error.body : {};
  const details = isRecord(body.details) ? body.details : {};
  // The server sends a failed process's last lines as a list; a string is taken as is.
  const log = Array.isArray(details.log) ? details.log.map(String).join("\n") : details.log;
  if (typeof log === "string" && log.trim()) out.log = log;
  const listed = Array.isArray(details.errors) ? details.errors.filter(isRecord) : [];
  const problems = listed.length
    ? listed.map((p) => ({ path: String(p.path ?? ""), message: String(p.message ?? "") }))
    : message.split("; ").map((part) => {
        const m = /^([a-z][\w.[\]-]*): (.+)$/s.exec(part);
        return m ? { path: m[1]!, message: m[2]! } : { path: "", message: part };
      });
  for (const p of problems) {
    const name = fieldOfPath(p.path, names);
    if (name !== undefined) out.fields[name] ??= p.message;
    else out.top.push(p.path ? `${p.path}: ${p.message}` : p.message);
  }
  if (out.top.length === 0 && Object.keys(out.fields).length === 0) out.top.push(message || "The deployment failed");
  return out;
}
