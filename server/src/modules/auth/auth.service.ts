import { nowIso } from "../../db/db.js";
import { InputError, RateLimitError, UnauthorizedError } from "../../http/errors.js";
import { parseRole } from "../../http/permissions.js";
import type { Principal } from "../../http/principal.js";
import type { UserRow, UsersRepo } from "../users/users.repo.js";
import { createCredentialCache, type CredentialCache } from "./credential-cache.js";
import { DUMMY_HASH, hashPassword, verifyPassword } from "./password.js";
import type { FailureLimiter } from "./rate-limiter.js";
import type { SessionsRepo } from "./sessions.repo.js";
import { hashToken, newToken } from "./tokens.js";

/** How often a used session has its expiry pushed forward (sliding renewal). */
const TOUCH_EVERY_MS = 60_000;

export function principalOf(user: UserRow, via: Principal["via"], extra: Partial<Principal> = {}): Principal {
  const role = parseRole(user.role) ?? "viewer";
  return { userId: user.id, username: user.username, role, ownerRole: role, via, demo: false, ...extra };
}

/** Sign-in, sessions and HTTP Basic. */
export function createAuthService(deps: {
  users: UsersRepo;
  sessions: SessionsRepo;
  limiter: FailureLimiter;
  sessionTtlMs: number;
}) {
  const { users, sessions, limiter, sessionTtlMs } = deps;
  const verifiedBasic = createCredentialCache();

  /**
   * Checks a username and password, with per-IP and per-username failure limits. With
   * `remembered`, a password verified there recently (for the same stored hash) skips scrypt.
   */
  async function checkCredentials(
    username: string,
    password: string,
    ip: string,
    remembered?: CredentialCache,
  ): Promise<UserRow> {
    const ipKey = `ip:${ip}`;
    const userKey = `user:${username.toLowerCase()}`;
    const wait = Math.max(limiter.blockedFor(ipKey), limiter.blockedFor(userKey));
    if (wait > 0) throw new RateLimitError(`too many failed sign-in attempts; try again in ${wait} s`, wait);
    const user = await users.byUsername(username);
    if (user && remembered?.has(username, password, user.password_hash)) return user;
    const ok = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
    if (!user || !ok) {
      limiter.fail(ipKey);
      limiter.fail(userKey);
      throw new UnauthorizedError("invalid credentials");
    }
    limiter.reset(userKey);
    remembered?.add(username, password, user.password_hash);
    return user;
  }

  return {
    checkCredentials,

    async login(
      username: string,
      password: string,
      meta: { ip: string; userAgent: string | undefined },
    ): Promise<{ token: string; user: UserRow; sessionId: number }> {
      const user = await checkCredentials(username, password, meta.ip);
      const token = newToken();
      const now = new Date();
      const session = await sessions.insert({
        token_hash: hashToken(token),
        user_id: user.id,
        created_at: now.toISOString(),
        last_seen_at: now.toISOString(),
        expires_at: new Date(now.getTime() + sessionTtlMs).toISOString(),
        ip_address: meta.ip,
        user_agent: meta.userAgent?.slice(0, 500) ?? null,
      });
      await users.update(user.id, { last_login_at: now.toISOString() });
      await sessions.deleteExpired(now.toISOString());
      return { token, user, sessionId: session.id };
    },

    /** Resolves a session cookie, renewing its expiry as it is used. */
    async fromSession(token: string): Promise<Principal | null> {
      const session = await sessions.byHash(hashToken(token));
      if (!session) return null;
      const now = Date.now();
      if (Date.parse(session.expires_at) <= now) {
        await sessions.delete(session.id);
        return null;
      }
      const user = await users.byId(session.user_id);
      if (!user) return null;
      if (now - Date.parse(session.last_seen_at) > TOUCH_EVERY_MS) {
        await sessions.touch(session.id, new Date(now).toISOString(), new Date(now + sessionTtlMs).toISOString());
      }
      return principalOf(user, "session", { sessionId: session.id });
    },

    /** HTTP Basic: checked on every request, with recently verified passwords remembered. */
    async fromBasic(username: string, password: string, ip: string): Promise<Principal> {
      return principalOf(await checkCredentials(username, password, ip, verifiedBasic), "basic");
    },

    async logout(sessionId: number | undefined): Promise<void> {
      if (sessionId !== undefined) await sessions.delete(sessionId);
    },

    async revokeAll(userId: number, exceptSessionId?: number): Promise<void> {
      await sessions.deleteForUser(userId, exceptSessionId);
    },

    async changePassword(principal: Principal, current: string, next: string): Promise<void> {
      const user = await users.byId(principal.userId);
      if (!user) throw new UnauthorizedError();
      if (!(await verifyPassword(current, user.password_hash))) {
        throw new InputError("current_password: is incorrect");
      }
      if (current === next) throw new InputError("new_password: must differ from the current password");
      await users.update(user.id, { password_hash: await hashPassword(next), updated_at: nowIso() });
      await sessions.deleteForUser(user.id, principal.sessionId);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
