import createClient, { type Middleware } from "openapi-fetch";
import { toApiError } from "@/api/errors";
import type { paths } from "@/api/schema";

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

type Method = "get" | "post" | "put" | "delete";
type Json<T> = T extends { content: { "application/json": infer J } } ? J : never;
/** The JSON body of a path's response, read from the generated `paths` (the server inlines its schemas). */
export type ResponseOf<P extends keyof paths, M extends Method, S extends number = 200> =
  NonNullable<paths[P][M]> extends { responses: infer R } ? (S extends keyof R ? Json<R[S]> : never) : never;

export type User = ResponseOf<"/auth/me", "get">;
export type Role = User["role"];
export type APIKey = ResponseOf<"/api-keys/{id}", "get">;
export type APIKeyLog = ResponseOf<"/api-keys/{id}/logs", "get">[number];
export type AuditEvent = ResponseOf<"/audit/logs/{id}", "get">;
export type Setting = ResponseOf<"/settings", "get">;
export type SettingConfig = Setting["config"];
export type Alert = ResponseOf<"/alerts", "get">[number];
export type ApiNotification = ResponseOf<"/user-notifications", "get">["notifications"][number];
export type RoleInfo = ResponseOf<"/roles", "get">[number];
export type KeyProvider = ResponseOf<"/key-providers/{id}", "get">;
export type KeyInfo = ResponseOf<"/keys/{id}", "get">;
export type KeyPage = ResponseOf<"/keys", "get">;
export type CreateKeyBody = NonNullable<paths["/keys"]["post"]>["requestBody"]["content"]["application/json"];
export type Organization = ResponseOf<"/organizations/{id}", "get">;
export type OrganizationPage = ResponseOf<"/organizations", "get">;
export type OrganizationKey = ResponseOf<"/organizations/{id}/keys", "get">["keys"][string];
export type IssuedIdentity = ResponseOf<"/organizations/{id}/keys", "post", 201>;
export type RevokedCertificate = ResponseOf<"/organizations/{id}/revoked-certificates", "get">[number];
export type BesuNetwork = ResponseOf<"/networks/besu/{id}", "get">;
export type CreateBesuNetworkBody = NonNullable<
  paths["/networks/besu"]["post"]
>["requestBody"]["content"]["application/json"];
export type BulkCreateBesuBody = NonNullable<
  paths["/networks/besu/bulk-create"]["post"]
>["requestBody"]["content"]["application/json"];
export type BulkCreateBesuResult = ResponseOf<"/networks/besu/bulk-create", "post", 201>;
export type NodeInfo = ResponseOf<"/nodes/{id}", "get">;
export type NodeStatus = NodeInfo["status"];
export type NodePage = ResponseOf<"/nodes", "get">;
export type NodeEventPage = ResponseOf<"/nodes/{id}/events", "get">;
export type NodeHealth = ResponseOf<"/nodes/{id}/health", "get">;
export type NodeHealthHistory = ResponseOf<"/nodes/{id}/health/history", "get">;
export type FabricNodeDefaults = ResponseOf<"/nodes/defaults/fabric-peer", "get">;
export type CreateNodeBody = NonNullable<paths["/nodes"]["post"]>["requestBody"]["content"]["application/json"];
export type UpdateNodeBody = NonNullable<paths["/nodes/{id}"]["put"]>["requestBody"]["content"]["application/json"];
