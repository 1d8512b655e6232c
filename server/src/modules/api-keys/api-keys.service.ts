import { nowIso } from "../../db/db.js";
import { ForbiddenError, InputError, NotFoundError } from "../../http/errors.js";
import { parseRole, permissionsOf, type Role } from "../../http/permissions.js";
import type { Principal } from "../../http/principal.js";
import { principalOf } from "../auth/auth.service.js";
import { hashToken, newToken } from "../auth/tokens.js";
import type { UsersRepo } from "../users/users.repo.js";
import type { ApiKeyLogRow, ApiKeyRow, ApiKeysRepo } from "./api-keys.repo.js";
import type { ApiKeyResponse } from "./api-keys.schema.js";

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Parses "90m", "12h" or "30d" into milliseconds. */
export function parseLifetime(value: string): number {
  const m = /^(\d{1,6})([mhd])$/.exec(value);
  if (!m) throw new InputError("expires_in: must look like 90m, 12h or 30d");
  const ms = Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
  if (ms <= 0) throw new InputError("expires_in: must be positive");
  if (ms > 3650 * UNIT_MS.d) throw new InputError("expires_in: must be at most 3650d");
  return ms;
}

const RANK: Record<Role, number> = { viewer: 0, manager: 1, admin: 2 };

/**
 * True when `narrow` is the same as or below `wide` (admin > manager > viewer). A key's effective
 * permissions are always the intersection of its role and its owner's role (see `isAllowed`), so a
 * manager's viewer key never gains the viewer-only reads (users, audit logs).
 */
function isWithin(narrow: Role, wide: Role): boolean {
  return RANK[narrow] <= RANK[wide];
}

function toResponse(row: ApiKeyRow): ApiKeyResponse {
  const role = parseRole(row.role) ?? "viewer";
  return {
    id: row.id,
    name: row.name,
    description: row.description ?? "",
    key_prefix: row.key_prefix,
    role,
    permissions: permissionsOf(role),
    user_id: row.user_id,
    is_active: row.is_active === 1,
    expires_at: row.expires_at,
    last_used_at: row.last_used_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function toLog(row: ApiKeyLogRow) {
  return {
    id: row.id,
    api_key_id: row.api_key_id,
    action: `${row.method} ${row.path}`,
    ip_address: row.ip_address ?? "",
    user_agent: row.user_agent ?? "",
    metadata: JSON.stringify({ method: row.method, path: row.path, status: row.status_code }),
    created_at: row.created_at,
  };
}

/** API keys: secrets shown once and stored hashed; a key acts with its owner's role or a narrower one. */
export function createApiKeysService(deps: { keys: ApiKeysRepo; users: UsersRepo }) {
  const { keys, users } = deps;

  async function ownKey(id: number, owner: Principal): Promise<ApiKeyRow> {
    const row = await keys.byId(id);
    if (!row || row.user_id !== owner.userId) throw new NotFoundError(`API key ${id} not found`);
    return row;
  }

  return {
    async list(owner: Principal): Promise<ApiKeyResponse[]> {
      return (await keys.listForUser(owner.userId)).map(toResponse);
    },
    async get(id: number, owner: Principal): Promise<ApiKeyResponse> {
      return toResponse(await ownKey(id, owner));
    },
    async create(
      owner: Principal,
      input: {
        name: string;
        description?: string | undefined;
        role?: Role | undefined;
        expires_in?: string | undefined;
      },
    ): Promise<{ api_key: ApiKeyResponse; key: string }> {
      if (owner.via === "api_key") throw new ForbiddenError("API keys cannot create other API keys");
      const role = input.role ?? owner.ownerRole;
      if (!isWithin(role, owner.ownerRole)) {
        throw new InputError(`role: '${role}' grants more than your own role '${owner.ownerRole}'`);
      }
      const now = new Date();
      const expires = input.expires_in ? new Date(now.getTime() + parseLifetime(input.expires_in)).toISOString() : null;
      const secret = `cl_${newToken(32)}`;
      const row = await keys.insert({
        user_id: owner.userId,
        name: input.name,
        description: input.description ?? null,
        key_prefix: secret.slice(0, 10),
        key_hash: hashToken(secret),
        role,
        is_active: 1,
        expires_at: expires,
        last_used_at: null,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      });
      return { api_key: toResponse(row), key: secret };
    },
    async revoke(id: number, owner: Principal): Promise<ApiKeyRow> {
      const row = await ownKey(id, owner);
      await keys.deactivate(id, nowIso());
      return row;
    },
    async logs(id: number, owner: Principal, limit: number) {
      await ownKey(id, owner);
      return (await keys.logs(id, limit)).map(toLog);
    },

    /** Resolves a presented secret. Revoked, expired or unknown keys resolve to null. */
    async authenticate(secret: string): Promise<Principal | null> {
      const row = await keys.byHash(hashToken(secret));
      if (!row || row.is_active !== 1) return null;
      if (row.expires_at && Date.parse(row.expires_at) <= Date.now()) return null;
      const user = await users.byId(row.user_id);
      if (!user) return null;
      const base = principalOf(user, "api_key", { apiKeyId: row.id });
      return { ...base, role: parseRole(row.role) ?? "viewer" };
    },

    async recordUse(entry: {
      apiKeyId: number;
      method: string;
      path: string;
      status: number;
      ip: string;
      userAgent: string | undefined;
    }): Promise<void> {
      const now = nowIso();
      await keys.insertLog({
        api_key_id: entry.apiKeyId,
        method: entry.method,
        path: entry.path.slice(0, 2000),
        status_code: entry.status,
        ip_address: entry.ip,
        user_agent: entry.userAgent?.slice(0, 500) ?? null,
        created_at: now,
      });
      await keys.markUsed(entry.apiKeyId, now);
    },
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
