import createClient, { type Middleware } from "openapi-fetch";
import { toApiError } from "@/api/errors";
import type { components, paths } from "@/api/schema";

/** Base path of the REST API; the console is served by the same origin as the server. */
export const API_BASE = "/api/v1";

/** Drops the JSON content-type on body-less requests (spec §7: empty bodies drop the header). */
const dropEmptyContentType: Middleware = {
  onRequest({ request }) {
    if (request.body === null && request.headers.get("content-type")?.includes("json")) {
      const headers = new Headers(request.headers);
      headers.delete("content-type");
      return new Request(request, { headers });
    }
    return undefined;
  },
};

/** The one typed client. Cookies carry the session, so every call includes credentials. */
export const api = createClient<paths>({
  baseUrl: API_BASE,
  credentials: "include",
  querySerializer: { array: { style: "form", explode: true }, object: { style: "deepObject", explode: true } },
});
api.use(dropEmptyContentType);

/**
 * Unwraps an openapi-fetch result: returns the data or throws ApiError.
 * Every query and mutation goes through here so errors look the same everywhere.
 */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw toApiError(response.status, error);
  return data as T;
}

export type Schemas = components["schemas"];
export type User = Schemas["User"];
export type Role = Schemas["Role"];
export type APIKey = Schemas["APIKey"];
export type APIKeyLog = Schemas["APIKeyLog"];
export type AuditEvent = Schemas["AuditEvent"];
export type Setting = Schemas["Setting"];
export type SettingConfig = Schemas["SettingConfig"];
export type ApiNotification = Schemas["Notification"];
export type RoleInfo = Schemas["RoleInfo"];
