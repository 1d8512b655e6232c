import { nowIso } from "../../db/db.js";
import { ConflictError, NotFoundError } from "../../http/errors.js";
import { parseRole, type Role } from "../../http/permissions.js";
import { hashPassword } from "../auth/password.js";
import type { UserResponse } from "./users.schema.js";
import type { UserRow, UsersRepo } from "./users.repo.js";
import { isUniqueViolation } from "../../db/unique-violation.js";

export function toUserResponse(row: UserRow): UserResponse {
  return {
    id: row.id,
    username: row.username,
    role: parseRole(row.role) ?? "viewer",
    created_at: row.created_at,
    last_login_at: row.last_login_at,
    demo_mode: false,
  };
}

/** User management with its guard rails: unique names, never delete yourself or the last admin. */
export function createUsersService(deps: {
  users: UsersRepo;
  /** Ends the user's sessions and closes their websockets, saying why. */
  revokeSessions: (userId: number, reason: string) => Promise<void>;
}) {
  const { users } = deps;

  async function mustGet(id: number): Promise<UserRow> {
    const row = await users.byId(id);
    if (!row) throw new NotFoundError(`user ${id} not found`);
    return row;
  }

  return {
    async list(): Promise<UserResponse[]> {
      return (await users.list()).map(toUserResponse);
    },
    async get(id: number): Promise<UserResponse> {
      return toUserResponse(await mustGet(id));
    },
    async create(input: { username: string; password: string; role: Role }): Promise<UserResponse> {
      const password_hash = await hashPassword(input.password);
      const now = nowIso();
      try {
        const row = await users.insert({
          username: input.username,
          password_hash,
          role: input.role,
          created_at: now,
          updated_at: now,
          last_login_at: null,
        });
        return toUserResponse(row);
      } catch (err) {
        if (isUniqueViolation(err)) throw new ConflictError(`username: '${input.username}' is already taken`);
        throw err;
      }
    },
    async update(id: number, patch: { username?: string | undefined; role?: Role | undefined }): Promise<UserResponse> {
      try {
        const row = await users.transaction(async (trx) => {
          // Lock the admins first, then read the user: a concurrent demotion has finished by then.
          const admins = patch.role && patch.role !== "admin" ? await users.lockAdminIds(trx) : [];
          const current = await users.byId(id, trx);
          if (!current) throw new NotFoundError(`user ${id} not found`);
          if (patch.role && patch.role !== "admin" && current.role === "admin" && admins.length <= 1) {
            throw new ConflictError("role: the last admin cannot be demoted");
          }
          const updated = await users.update(
            id,
            {
              ...(patch.username ? { username: patch.username } : {}),
              ...(patch.role ? { role: patch.role } : {}),
              updated_at: nowIso(),
            },
            trx,
          );
          return updated!;
        });
        if (patch.role) await deps.revokeSessions(id, "role changed");
        return toUserResponse(row);
      } catch (err) {
        if (isUniqueViolation(err)) throw new ConflictError(`username: '${patch.username}' is already taken`);
        throw err;
      }
    },
    async setPassword(id: number, password: string): Promise<void> {
      await mustGet(id);
      await users.update(id, { password_hash: await hashPassword(password), updated_at: nowIso() });
      await deps.revokeSessions(id, "password reset");
    },
    async remove(id: number, actingUserId: number): Promise<UserRow> {
      if (id === actingUserId) throw new ConflictError("id: you cannot delete your own account");
      return users
        .transaction(async (trx) => {
          const admins = await users.lockAdminIds(trx);
          const row = await users.byId(id, trx);
          if (!row) throw new NotFoundError(`user ${id} not found`);
          if (row.role === "admin" && admins.length <= 1) {
            throw new ConflictError("id: the last admin cannot be deleted");
          }
          await users.delete(id, trx);
          return row;
        })
        .then(async (row) => {
          await deps.revokeSessions(id, "account deleted");
          return row;
        });
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
