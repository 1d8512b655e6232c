import type { Generated } from "kysely";

/**
 * Table types. Dialect-neutral on purpose: timestamps are ISO-8601 UTC strings,
 * booleans are 0/1 integers and JSON is text, so SQLite and PostgreSQL share one set of queries.
 */
export interface UsersTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  role: string;
  created_at: string;
  updated_at: string;
  last_login_at: string | null;
}

export interface SessionsTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  created_at: string;
  expires_at: string;
  last_seen_at: string;
  ip_address: string | null;
  user_agent: string | null;
}

export interface ApiKeysTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  description: string | null;
  key_prefix: string;
  key_hash: string;
  role: string;
  is_active: number;
  expires_at: string | null;
  last_used_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ApiKeyLogsTable {
  id: Generated<number>;
  api_key_id: number;
  method: string;
  path: string;
  status_code: number;
  ip_address: string | null;
  user_agent: string | null;
  created_at: string;
}

export interface AuditLogsTable {
  id: Generated<number>;
  timestamp: string;
  event_type: string;
  event_source: string;
  event_outcome: string;
  severity: string;
  user_id: number | null;
  username: string | null;
  source_ip: string | null;
  request_id: string | null;
  session_id: string | null;
  affected_resource: string | null;
  details: string | null;
}

export interface SettingsTable {
  id: Generated<number>;
  config: string;
  created_at: string;
  updated_at: string;
}

export interface UserNotificationsTable {
  id: Generated<number>;
  user_id: number;
  event_type: string;
  event_data: string;
  is_read: number;
  created_at: string;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
  api_key_logs: ApiKeyLogsTable;
  audit_logs: AuditLogsTable;
  settings: SettingsTable;
  user_notifications: UserNotificationsTable;
}
