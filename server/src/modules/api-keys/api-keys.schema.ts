import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import { PERMISSIONS, ROLES, type Permission } from "../../http/permissions.js";
import { roleInput } from "../users/users.schema.js";

const permissionCodes = Object.keys(PERMISSIONS) as [Permission, ...Permission[]];

export const apiKeyResponse = lazySchema(() =>
  z
    .object({
      id: z.number().int().describe("API key id"),
      name: z.string().describe("Name given at creation"),
      description: z.string().describe("Free text"),
      key_prefix: z.string().describe("First characters of the secret, to recognise it"),
      role: z.enum(ROLES).describe("Role the key acts with"),
      permissions: z.array(z.enum(permissionCodes)).describe("Permissions the key grants"),
      user_id: z.number().int().describe("Owner"),
      is_active: z.boolean().describe("False once revoked"),
      expires_at: z.string().nullable().describe("Expiry, RFC 3339, or null for none"),
      last_used_at: z.string().nullable().describe("Last use, RFC 3339"),
      created_at: z.string().describe("Creation time"),
      updated_at: z.string().describe("Last change"),
    })
    .describe("An API key (never its secret)")
    .meta({ id: "APIKey" }),
);
export type ApiKeyResponse = z.infer<typeof apiKeyResponse>;

export const createApiKeyBody = lazySchema(() =>
  z
    .object({
      name: z.string().trim().min(1).max(100).describe("Name"),
      description: z.string().max(500).optional().describe("Free text"),
      role: roleInput.optional().describe("A role no wider than yours; defaults to yours"),
      expires_in: z
        .string()
        .regex(/^(\d{1,6}[mhd])?$/, "must look like 90m, 12h or 30d")
        .optional()
        // Go clients send the zero string for a key that never expires.
        .transform((v) => (v === "" ? undefined : v))
        .describe("Lifetime such as 90m, 12h or 30d; omit (or send empty) for no expiry"),
      permissions: z
        .array(z.enum(permissionCodes))
        .max(100)
        .optional()
        .describe("Accepted for compatibility; the role decides"),
    })
    .strict()
    .describe("New API key"),
);

export const createApiKeyResponse = lazySchema(() =>
  z
    .object({
      api_key: apiKeyResponse,
      key: z.string().describe("The secret. Shown only in this response"),
    })
    .describe("The created key and its secret"),
);

export const apiKeyLogResponse = lazySchema(() =>
  z
    .object({
      id: z.number().int().describe("Log entry id"),
      api_key_id: z.number().int().describe("Key used"),
      action: z.string().describe("Method and path, e.g. GET /api/v1/users"),
      ip_address: z.string().describe("Caller IP"),
      user_agent: z.string().describe("Caller user agent"),
      metadata: z.string().describe('JSON: {"method","path","status"}'),
      created_at: z.string().describe("Time of use"),
    })
    .describe("One use of an API key")
    .meta({ id: "APIKeyLog" }),
);

export const logsQuery = lazySchema(() =>
  z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100).describe("Entries to return") }).strict(),
);
