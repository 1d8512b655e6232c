import { setTimeout as sleep } from "node:timers/promises";
import { nowIso } from "../../db/db.js";
import type { SocketsEnded } from "../../events/ws-hub.js";
import { InputError, RateLimitError, UnauthorizedError } from "../../http/errors.js";
import { parseRole } from "../../http/permissions.js";
import type { Principal } from "../../http/principal.js";
import type { UserRow, UsersRepo } from "../users/users.repo.js";
import { createCredentialCache, type CredentialCache } from "./credential-cache.js";
import { DUMMY_HASH, hashPassword, verifyPassword } from "./password.js";
import { createFailureLimiter, holdAttempt, type FailureLimiter } from "./rate-limiter.js";
import type { SessionsRepo } from "./sessions.repo.js";
import { hashToken, newToken } from "./tokens.js";

/** How often a used session has its expiry pushed forward (sliding renewal). */
const TOUCH_EVERY_MS = 60_000;
/** An IP may fail this many times the per-pair limit before it is refused outright. */
const IP_ALLOWANCE = 4;
/** Longest delay the per-username backoff adds to a failed attempt. */
const MAX_BACKOFF_MS = 2000;

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

  /** Failures per IP: several users behind one address may mistype, so it allows more than the pair limit. */
  const signedOut: Array<(e: SocketsEnded) => void> = [];
  const ended = (e: SocketsEnded): void => {
    for (const l of signedOut) l(e);
  };
  const perIp = createFailureLimiter({ max: limiter.max * IP_ALLOWANCE, windowMs: limiter.windowMs });
  /** Failures per username from any IP: slows guessing, never refuses (see checkCredentials). */
  const perUser = createFailureLimiter({ max: 1, windowMs: limiter.windowMs });

  /**
   * Checks a username and password. Login limiting (issue 10, item 17) must not let anyone lock out
   * `admin` by failing on purpose:
   * - an IP+username pair that failed `max` times in the window is refused (429) until the window moves;
   * - an IP that failed `max × 4` times, over any usernames, is refused likewise;
   * - per username (from any IP) there is only a backoff: each failed attempt is answered after a delay
   *   that doubles with the username's recent failures (up to 2 s). A correct password from an IP that
   *   has not failed passes at once, however many failures others caused.
   * The pair and IP places are taken before scrypt runs and given back when it ends (issue 29, item 7),
   * so parallel attempts can't outrun the count: at most `max` passwords per pair are ever checked.
   * With `remembered`, a password verified there recently (for the same stored hash) skips scrypt
   * and takes no place.
   */
  async function checkCredentials(
    username: string,
    password: string,
    ip: string,
    remembered?: CredentialCache,
  ): Promise<UserRow> {
    const name = username.toLowerCase();
    const ipKey = `ip:${ip}`;
    const pairKey = `ip:${ip}|user:${name}`;
    const refuse = (wait: number): Error =>
      new RateLimitError(`too many failed sign-in attempts; try again in ${wait} s`, wait);
    const wait = Math.max(perIp.blockedFor(ipKey), limiter.blockedFor(pairKey));
    if (wait > 0) throw refuse(wait);
    const user = await users.byUsername(username);
    if (user && remembered?.has(username, password, user.password_hash)) return user;
    const attempt = await holdAttempt(
      [
        [perIp, ipKey],
        [limiter, pairKey],
      ],
      refuse,
    );
    let ok = false;
    try {
      ok = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
    } finally {
      attempt.end(!(user && ok));
    }
    if (!user || !ok) {
      perUser.fail(name);
      const recent = perUser.count(name);
      if (recent > limiter.max) await sleep(Math.min(MAX_BACKOFF_MS, 50 * 2 ** Math.min(recent - limiter.max, 6)));
      throw new UnauthorizedError("invalid credentials");
    }
    limiter.reset(pairKey);
    perUser.reset(name);
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

    /** Listens for ended credentials (the websocket hub closes the sockets they opened). */
    onSignedOut(listener: (e: SocketsEnded) => void): void {
      signedOut.push(listener);
    },

    async logout(principal: Principal | null): Promise<void> {
      if (principal?.sessionId === undefined) return;
      await sessions.delete(principal.sessionId);
      ended({ userId: principal.userId, sessionId: principal.sessionId, reason: "signed out" });
    },

    async revokeAll(userId: number, exceptSessionId?: number, reason = "sessions revoked"): Promise<void> {
      await sessions.deleteForUser(userId, exceptSessionId);
      ended({ userId, exceptSessionId, reason });
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
      ended({ userId: user.id, exceptSessionId: principal.sessionId, reason: "password changed" });
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
