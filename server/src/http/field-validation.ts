import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import { InputError } from "./errors.js";

/**
 * Unknown request-body fields, handled the way Kubernetes does (`?fieldValidation=`):
 * - `Warn` (default): unknown fields are dropped and each is named in a `Warning: 299 - "unknown field \"body.x\""`
 *   response header. Clients that send back what they read (the Terraform provider) keep working.
 * - `Ignore`: dropped silently.
 * - `Strict`: refused with a 400 naming the field, as the schemas themselves would.
 * The value is matched case-insensitively. Fields our schemas declare are never "unknown".
 */
export const FIELD_VALIDATION_MODES = ["Strict", "Warn", "Ignore"] as const;
export type FieldValidation = (typeof FIELD_VALIDATION_MODES)[number];

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  discriminator?: string;
  in?: z.ZodType;
  out?: z.ZodType;
  left?: z.ZodType;
  right?: z.ZodType;
  valueType?: z.ZodType;
  getter?: () => z.ZodType;
  values?: unknown[];
};
const defOf = (s: z.ZodType | undefined): Def | undefined => (s as { _zod?: { def: Def } } | undefined)?._zod?.def;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The object schemas a value is checked against (unwrapping optional, default, pipe, lazy, ...). */
function objectShapes(schema: z.ZodType | undefined, value: Record<string, unknown>, depth = 0): Def[] {
  const def = defOf(schema);
  if (!def || depth > 20) return [];
  switch (def.type) {
    case "object":
      return [def];
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "nonoptional":
    case "catch":
    case "readonly":
      return objectShapes(def.innerType, value, depth + 1);
    case "pipe":
      return objectShapes(def.in, value, depth + 1);
    case "lazy":
      return def.getter ? objectShapes(def.getter(), value, depth + 1) : [];
    case "intersection":
      return [...objectShapes(def.left, value, depth + 1), ...objectShapes(def.right, value, depth + 1)];
    case "union": {
      const options = def.options ?? [];
      if (def.discriminator) {
        const tag = value[def.discriminator];
        const match = options.find((o) => {
          const lit = defOf(defOf(o)?.shape?.[def.discriminator!]);
          return lit?.values?.includes(tag);
        });
        // An unknown tag is the schema's to refuse; don't guess which fields are unknown.
        return match ? objectShapes(match, value, depth + 1) : [];
      }
      return options.flatMap((o) => objectShapes(o, value, depth + 1));
    }
    default:
      return [];
  }
}

/** The schema a property or array element is checked against, for recursing. */
function elementSchema(schema: z.ZodType | undefined, depth = 0): z.ZodType | undefined {
  const def = defOf(schema);
  if (!def || depth > 20) return undefined;
  if (def.type === "array") return def.element;
  if (["optional", "nullable", "default", "prefault", "nonoptional", "catch", "readonly"].includes(def.type))
    return elementSchema(def.innerType, depth + 1);
  if (def.type === "pipe") return elementSchema(def.in, depth + 1);
  return undefined;
}

/**
 * Finds (and with `drop`, deletes) the fields of `value` that `schema` does not declare. Objects that
 * accept any key (records, passthrough) have no unknown fields; their values are not inspected.
 */
export function unknownFields(schema: z.ZodType | undefined, value: unknown, path: string, drop: boolean): string[] {
  const out: string[] = [];
  if (Array.isArray(value)) {
    const el = elementSchema(schema);
    if (el) value.forEach((v, i) => out.push(...unknownFields(el, v, `${path}[${i}]`, drop)));
    return out;
  }
  if (!isPlainObject(value)) return out;
  const shapes = objectShapes(schema, value);
  if (shapes.length === 0) return out;
  if (shapes.some((d) => d.catchall && defOf(d.catchall)?.type !== "never")) return out;
  for (const key of Object.keys(value)) {
    const owner = shapes.find((d) => d.shape && Object.hasOwn(d.shape, key));
    if (!owner) {
      out.push(`${path}.${key}`);
      if (drop) delete value[key];
      continue;
    }
    out.push(...unknownFields(owner.shape![key], value[key], `${path}.${key}`, drop));
  }
  return out;
}

function modeOf(raw: unknown): FieldValidation | undefined {
  const v = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  if (v === undefined) return undefined;
  const mode = FIELD_VALIDATION_MODES.find((m) => m.toLowerCase() === String(v).toLowerCase());
  if (!mode) throw new InputError(`querystring.fieldValidation: must be one of ${FIELD_VALIDATION_MODES.join(", ")}`);
  return mode;
}

/** Longest field name (in characters, before escaping) a Warning header quotes; longer ones are cut. */
const MAX_WARNED_FIELD = 100;
/** Most Warning headers one response carries; the rest are counted in a last one. */
const MAX_WARNINGS = 10;

/**
 * A field name as a JSON string literal that is printable ASCII only: quotes, backslashes and control
 * characters are escaped by JSON.stringify, and DEL and everything above U+007E become `\uXXXX`
 * (astral characters as their surrogate pair). Node refuses to send a header value holding a
 * character above U+00FF or a control character (ERR_INVALID_CHAR), and that happened after the
 * handler had written: the client saw a 500 for a row that existed. `JSON.parse` gives the name back.
 */
export function escapedField(field: string): string {
  const chars = Array.from(field);
  const cut = chars.length > MAX_WARNED_FIELD ? `${chars.slice(0, MAX_WARNED_FIELD).join("")}...` : field;
  return JSON.stringify(cut).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** A Kubernetes-style warning header value (RFC 7234 warn-code 299, agent "-"), printable ASCII only. */
export const warning = (field: string): string =>
  // Inside the header's quoted-string the field's own quotes and backslashes are escaped again:
  // unknown field \"body.x\".
  `299 - "${`unknown field ${escapedField(field)}`.replace(/[\\"]/g, "\\$&")}"`;

/** The Warning header values for `fields`: at most MAX_WARNINGS, then one that counts the rest. */
export function warningHeaders(fields: readonly string[]): string[] {
  const shown = fields.slice(0, MAX_WARNINGS).map(warning);
  const rest = fields.length - shown.length;
  return rest > 0 ? [...shown, `299 - "${rest} more unknown fields"`] : shown;
}

/** Applies `?fieldValidation=` before the schemas validate the body (see the module comment). */
export function registerFieldValidation(app: FastifyInstance): void {
  app.addHook("preValidation", async (req, reply) => {
    const query = req.query as Record<string, unknown> | undefined;
    const mode = query && "fieldValidation" in query ? modeOf(query.fieldValidation) : undefined;
    // The parameter belongs to every route; route query schemas never see it.
    if (query && "fieldValidation" in query) delete query.fieldValidation;
    const schema = req.routeOptions.schema?.body as z.ZodType | undefined;
    if (!schema || req.body === undefined) return;
    if (mode === "Strict") {
      const unknown = unknownFields(schema, req.body, "body", false);
      if (unknown.length) {
        throw new InputError(
          `${unknown[0]}: unknown field (fieldValidation=Strict)`,
          unknown.map((field) => ({ field, message: "unknown field" })),
        );
      }
      return;
    }
    const dropped = unknownFields(schema, req.body, "body", true);
    if (dropped.length && (mode ?? "Warn") === "Warn") reply.header("warning", warningHeaders(dropped));
  });
}
