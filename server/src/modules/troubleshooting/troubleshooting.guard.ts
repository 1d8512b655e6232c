import type { FastifyRequest } from "fastify";
import { crossSiteProblem } from "../../http/auth-hooks.js";
import { ForbiddenError, RateLimitError, UnauthorizedError } from "../../http/errors.js";
import type { SettingsService } from "../settings/settings.service.js";

/** Calls per client IP per minute: anonymous callers get a tight budget, signed-in ones a loose one. */
export const RATE_LIMITS = { anonymous: 20, signedIn: 120 } as const;
const WINDOW_MS = 60_000;

/** A fixed one-minute window per client IP (in memory; the console is one process). */
export function createRateLimiter(now: () => number = Date.now) {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    take(key: string, limit: number): void {
      const t = now();
      const w = windows.get(key);
      if (!w || t - w.start >= WINDOW_MS) {
        // Drop expired windows now and then so the map does not grow with every address seen.
        if (windows.size > 10_000) for (const [k, v] of windows) if (t - v.start >= WINDOW_MS) windows.delete(k);
        windows.set(key, { start: t, count: 1 });
        return;
      }
      w.count += 1;
      if (w.count > limit) {
        const wait = Math.max(1, Math.ceil((w.start + WINDOW_MS - t) / 1000));
        throw new RateLimitError(`too many troubleshooting calls from ${key}; try again in ${wait} s`, wait);
      }
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/** Who called a troubleshooting tool, as far as its guard cares. */
export interface Caller {
  signedIn: boolean;
  /** An admin (not the demo visitor): the only caller ping and check-port take to non-public addresses. */
  admin: boolean;
}

/**
 * The guard every troubleshooting route runs first: no cross-site caller, credentials when an admin
 * setting requires them, and the per-IP rate limit (decision 44).
 */
export function createGuard(deps: { settings: Pick<SettingsService, "get">; limiter: RateLimiter }) {
  return async function guard(req: FastifyRequest): Promise<Caller> {
    const problem = crossSiteProblem(req, [], { requireProof: false });
    if (problem) throw new ForbiddenError(`cross-site request refused: ${problem}`);
    const signedIn = Boolean(req.principal);
    if (!signedIn && (await deps.settings.get()).config.troubleshootingRequireAuth) {
      throw new UnauthorizedError("the troubleshooting tools need a signed-in user or API key (Settings)");
    }
    deps.limiter.take(req.ip, signedIn ? RATE_LIMITS.signedIn : RATE_LIMITS.anonymous);
    const p = req.principal;
    return { signedIn, admin: Boolean(p && !p.demo && p.role === "admin" && p.ownerRole === "admin") };
  };
}

export type Guard = ReturnType<typeof createGuard>;
