import { FIELD_VALIDATION_MODES } from "./field-validation.js";

/** The error envelope every error response carries (see error-handler.ts), as an OpenAPI component. */
export const ERROR_RESPONSE_SCHEMA = {
  type: "object",
  required: ["error", "message", "requestId"],
  properties: {
    error: {
      type: "string",
      description:
        "Stable code: INVALID_INPUT, UNAUTHORIZED, FORBIDDEN, NOT_FOUND, CONFLICT, RATE_LIMITED, INTERNAL, ...",
    },
    message: { type: "string", description: "What went wrong, starting with the field it concerns" },
    details: {
      description:
        "Per-field problems for validation errors; for 403, the permission, the roles that hold it (requiredRoles), the caller's role and whether it is the demo visitor",
    },
    requestId: { type: "string", description: "The request id (also in the X-Request-Id header)" },
  },
} as const;

const ref = { $ref: "#/components/schemas/ErrorResponse" };
const error = (description: string) => ({ description, ...ref });

type Schema = Record<string, unknown> & {
  response?: Record<string, unknown>;
  querystring?: Record<string, unknown>;
  produces?: string[];
};

/**
 * Completes one operation of the generated OpenAPI document: the error responses it can give (all
 * with the ErrorResponse envelope), 204 responses without a body, success responses in the media
 * types of the route's `produces` (errors stay JSON, so `produces` can't be left to @fastify/swagger,
 * which would apply it to every status), and the `fieldValidation` query parameter on operations
 * that take a body.
 */
export function completeOperation(method: string, url: string, schema: Schema, access: string | undefined): Schema {
  const response: Record<string, unknown> = { ...(schema.response ?? {}) };
  const { produces, ...rest } = schema;
  for (const code of Object.keys(response)) {
    if (code === "204") {
      const description = (response[code] as { description?: string } | undefined)?.description ?? "No content";
      response[code] = { type: "null", description };
    } else if (produces?.length && code.startsWith("2")) {
      const body = response[code] as { description?: string };
      response[code] = {
        description: body.description ?? "Success",
        content: Object.fromEntries(produces.map((type) => [type, { schema: body }])),
      };
    }
  }
  const add = (code: string, description: string): void => {
    if (!(code in response)) response[code] = error(description);
  };
  add("400", "Invalid input: the message names the field");
  if (access !== "public") {
    add("401", "Not signed in, or the credentials are wrong");
    add("403", "The caller's role does not allow this (or a cross-site change was refused)");
  }
  if (/[:{]\w+/.test(url)) add("404", "The resource the path names does not exist");
  if (method !== "GET") add("409", "Conflicts with the current state (name taken, in use, last admin, ...)");
  add("500", "Internal error; the message carries the request id, the log has the details");
  const out: Schema = { ...rest, response };
  if (schema.body) {
    const q = (schema.querystring ?? { type: "object", properties: {} }) as {
      properties?: Record<string, unknown>;
    };
    out.querystring = {
      ...q,
      type: "object",
      properties: {
        ...(q.properties ?? {}),
        fieldValidation: {
          type: "string",
          enum: [...FIELD_VALIDATION_MODES],
          description:
            "Unknown body fields: Warn (default) drops them with a Warning header, Ignore drops them, Strict refuses them",
        },
      },
    };
  }
  return out;
}

/**
 * Replaces each `{ allOf: [{ $ref }] }` that has nothing else with the `{ $ref }` itself, in place, and
 * returns `doc`. A schema reached through `lazySchema` (a `z.lazy`) that points at a named component
 * comes out of zod's OpenAPI 3.0 conversion as that lone `allOf`; both mean the same, and the document
 * stays the one clients were generated from.
 */
export function collapseLoneRefs<T>(doc: T): T {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) node[i] = visit(node[i]);
      return node;
    }
    if (!node || typeof node !== "object") return node;
    const obj = node as Record<string, unknown>;
    const keys = Object.keys(obj);
    if (keys.length === 1 && keys[0] === "allOf" && Array.isArray(obj.allOf) && obj.allOf.length === 1) {
      const only = obj.allOf[0] as Record<string, unknown> | null;
      if (only && typeof only === "object" && Object.keys(only).length === 1 && typeof only.$ref === "string")
        return { $ref: only.$ref };
    }
    for (const key of keys) obj[key] = visit(obj[key]);
    return obj;
  };
  return visit(doc) as T;
}
