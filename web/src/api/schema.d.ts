/**
 * Hand-written stand-in for the openapi-typescript output, matching docs/api-foundation.md.
 * `scripts/gen-api.sh` regenerates this file from the server's OpenAPI document; the shape
 * (`paths` / `components`) is the generator's, so the swap is drop-in.
 */
type JsonBody<T> = { content: { "application/json": T } };
type Ok<T> = { headers: { [name: string]: unknown }; content: { "application/json": T } };
type NoContent = { headers: { [name: string]: unknown }; content?: never };
type Err = { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["Error"] } };
type IdPath = { path: { id: number }; query?: never; header?: never; cookie?: never };
type NoParams = { query?: never; header?: never; path?: never; cookie?: never };

export interface paths {
  "/auth/login": {
    post: {
      parameters: NoParams;
      requestBody: JsonBody<{ username: string; password: string }>;
      responses: { 200: Ok<components["schemas"]["Message"]>; 401: Err; 429: Err };
    };
  };
  "/auth/logout": {
    post: { parameters: NoParams; responses: { 200: Ok<components["schemas"]["Message"]>; 401: Err } };
  };
  "/auth/me": {
    get: { parameters: NoParams; responses: { 200: Ok<components["schemas"]["User"]>; 401: Err } };
  };
  "/auth/change-password": {
    post: {
      parameters: NoParams;
      requestBody: JsonBody<{ current_password: string; new_password: string }>;
      responses: { 200: Ok<components["schemas"]["Message"]>; 400: Err; 401: Err; 403: Err };
    };
  };
  "/users": {
    get: { parameters: NoParams; responses: { 200: Ok<components["schemas"]["User"][]>; 403: Err } };
    post: {
      parameters: NoParams;
      requestBody: JsonBody<{ username: string; password: string; role: components["schemas"]["Role"] }>;
      responses: { 201: Ok<components["schemas"]["User"]>; 400: Err; 403: Err; 409: Err };
    };
  };
  "/users/{id}": {
    get: { parameters: IdPath; responses: { 200: Ok<components["schemas"]["User"]>; 404: Err } };
    put: {
      parameters: IdPath;
      requestBody: JsonBody<{ username?: string; role?: components["schemas"]["Role"] }>;
      responses: { 200: Ok<components["schemas"]["User"]>; 403: Err; 404: Err; 409: Err };
    };
    delete: { parameters: IdPath; responses: { 204: NoContent; 403: Err; 404: Err; 409: Err } };
  };
  "/users/{id}/password": {
    put: {
      parameters: IdPath;
      requestBody: JsonBody<{ new_password: string }>;
      responses: { 200: Ok<components["schemas"]["Message"]>; 403: Err };
    };
  };
  "/roles": {
    get: { parameters: NoParams; responses: { 200: Ok<components["schemas"]["RoleInfo"][]> } };
  };
  "/permissions": {
    get: {
      parameters: NoParams;
      responses: {
        200: Ok<{
          permissions: components["schemas"]["PermissionInfo"][];
          roles: components["schemas"]["RoleInfo"][];
        }>;
      };
    };
  };
  "/api-keys": {
    get: { parameters: NoParams; responses: { 200: Ok<components["schemas"]["APIKey"][]> } };
    post: {
      parameters: NoParams;
      requestBody: JsonBody<{
        name: string;
        description?: string;
        role?: components["schemas"]["Role"];
        expires_in?: string;
      }>;
      responses: { 201: Ok<{ api_key: components["schemas"]["APIKey"]; key: string }>; 400: Err; 403: Err };
    };
  };
  "/api-keys/{id}": {
    get: { parameters: IdPath; responses: { 200: Ok<components["schemas"]["APIKey"]>; 404: Err } };
    delete: { parameters: IdPath; responses: { 204: NoContent; 403: Err; 404: Err } };
  };
  "/api-keys/{id}/logs": {
    get: {
      parameters: { path: { id: number }; query?: { limit?: number }; header?: never; cookie?: never };
      responses: { 200: Ok<components["schemas"]["APIKeyLog"][]>; 404: Err };
    };
  };
  "/audit/logs": {
    get: {
      parameters: {
        query?: {
          page?: number;
          page_size?: number;
          start?: string;
          end?: string;
          event_type?: string;
          user_id?: number;
          event_outcome?: "SUCCESS" | "FAILURE";
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      responses: {
        200: Ok<{ items: components["schemas"]["AuditEvent"][]; page: number; page_size: number; total_count: number }>;
        403: Err;
      };
    };
  };
  "/audit/logs/{id}": {
    get: { parameters: IdPath; responses: { 200: Ok<components["schemas"]["AuditEvent"]>; 404: Err } };
  };
  "/settings": {
    get: { parameters: NoParams; responses: { 200: Ok<components["schemas"]["Setting"]> } };
    post: {
      parameters: NoParams;
      requestBody: JsonBody<{ config: components["schemas"]["SettingConfig"] }>;
      responses: { 200: Ok<components["schemas"]["Setting"]>; 400: Err; 403: Err };
    };
  };
  "/user-notifications": {
    get: {
      parameters: {
        query?: { limit?: number; offset?: number; is_read?: boolean };
        header?: never;
        path?: never;
        cookie?: never;
      };
      responses: {
        200: Ok<{ notifications: components["schemas"]["Notification"][]; total: number; limit: number; offset: number }>;
      };
    };
  };
  "/user-notifications/unread/count": {
    get: { parameters: NoParams; responses: { 200: Ok<{ count: number }> } };
  };
  "/user-notifications/read-all": {
    post: { parameters: NoParams; responses: { 200: Ok<components["schemas"]["Message"]> } };
  };
  "/user-notifications/test": {
    post: {
      parameters: NoParams;
      requestBody: JsonBody<{ event_type: string; event_data?: Record<string, unknown> }>;
      responses: { 201: Ok<components["schemas"]["Notification"]>; 403: Err };
    };
  };
  "/user-notifications/{id}": {
    delete: { parameters: IdPath; responses: { 200: Ok<components["schemas"]["Message"]>; 404: Err } };
  };
  "/user-notifications/{id}/read": {
    post: { parameters: IdPath; responses: { 200: Ok<components["schemas"]["Message"]>; 404: Err } };
  };
  "/user-notifications/{id}/unread": {
    post: { parameters: IdPath; responses: { 200: Ok<components["schemas"]["Message"]>; 404: Err } };
  };
}

export interface components {
  schemas: {
    Error: { error: string; message: string; details?: unknown; requestId?: string };
    Message: { message: string };
    Role: "admin" | "manager" | "viewer";
    User: {
      id: number;
      username: string;
      role: components["schemas"]["Role"];
      created_at: string;
      last_login_at: string | null;
      demo_mode: boolean;
    };
    PermissionInfo: { code: string; name: string; category: string; description: string };
    RoleInfo: {
      role: components["schemas"]["Role"];
      name: string;
      description: string;
      permissions: components["schemas"]["PermissionInfo"][];
    };
    APIKey: {
      id: number;
      name: string;
      description: string | null;
      key_prefix: string;
      role: components["schemas"]["Role"];
      permissions: string[];
      user_id: number;
      is_active: boolean;
      expires_at: string | null;
      last_used_at: string | null;
      created_at: string;
      updated_at: string;
    };
    APIKeyLog: {
      id: number;
      api_key_id: number;
      action: string;
      ip_address: string | null;
      user_agent: string | null;
      metadata: string | null;
      created_at: string;
    };
    AuditEvent: {
      id: number;
      timestamp: string;
      eventType: string;
      eventSource: string;
      eventOutcome: "SUCCESS" | "FAILURE";
      severity: "INFO" | "WARNING" | "CRITICAL";
      userIdentity: { id?: number; username?: string; role?: string } | null;
      sourceIp: string | null;
      requestId: string | null;
      sessionId: string | null;
      affectedResource: string | null;
      details: { [key: string]: unknown };
    };
    SettingConfig: {
      defaultNodeExposeIP: string;
      peerTemplateCMD: string;
      ordererTemplateCMD: string;
      besuTemplateCMD: string;
      demoMode: boolean;
      healthCheckInterval: number;
      healthCheckTimeout: number;
      healthCheckRetention: number;
      portRangeStart: number;
      portRangeEnd: number;
    };
    Setting: { id: number; config: components["schemas"]["SettingConfig"]; created_at: string; updated_at: string };
    Notification: {
      id: number;
      event_type: string;
      event_data: { [key: string]: unknown };
      created_at: string;
      is_read: boolean;
    };
  };
}
