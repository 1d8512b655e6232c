import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ApiKeysService } from "../modules/api-keys/api-keys.service.js";
import type { AuditService } from "../modules/audit/audit.service.js";
import type { AuthService } from "../modules/auth/auth.service.js";
import { ForbiddenError, UnauthorizedError } from "./errors.js";
import { PERMISSIONS, roleHas, type RouteAccess } from "./permissions.js";
import { DEMO_PRINCIPAL, type Principal } from "./principal.js";

export const SESSION_COOKIE = "session_id";

/** An API route must declare its access rule: one without fails the start (the routes' onRoute, deferred ones too). */
export function requireAccessRule(method: unknown, url: string, config: { access?: unknown } | undefined): void {
  if (url.startsWith("/api/v1") && !config?.access) {
    throw new Error(`route ${String(method)} ${url} declares no access rule`);
  }
}
/** Where a request keeps its `auditInfo` (see the decorator). */
const AUDIT_INFO = Symbol("auditInfo");

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** Reads the demo visitor may not make although viewers may: the user list and the audit log. */
const DEMO_HIDDEN = new Set<RouteAccess>(["USER_READ", "AUDIT_READ"]);

function parseBasic(header: string): { username: string; password: string } | null {
  const decoded = Buffer.from(header.slice(6).trim(), "base64").toString("utf8");
  const i = decoded.indexOf(":");
  // A NUL can't be in a username (and PostgreSQL text can't hold one): malformed, not a lookup.
  if (i < 0 || decoded.includes("\u0000")) return null;
  return { username: decoded.slice(0, i), password: decoded.slice(i + 1) };
}

export function presentedApiKey(req: FastifyRequest): string | undefined {
  const header = req.headers["x-api-key"];
  if (typeof header === "string" && header) return header.trim();
  const auth = req.headers.authorization;
  if (auth && /^bearer /i.test(auth)) return auth.slice(7).trim();
  return undefined;
}

/** Decides whether `principal` may call a route declared with `access`. */
export function isAllowed(access: RouteAccess, principal: Principal | null, method: string): boolean {
  if (access === "public") return true;
  if (!principal) return false;
  if (access === "self") return !(principal.demo && !READ_METHODS.has(method));
  // The demo visitor is anyone on the internet: it may look at the console, not at who uses it.
  if (principal.demo && DEMO_HIDDEN.has(access)) return false;
  return roleHas(principal.role, access) && roleHas(principal.ownerRole, access);
}

/**
 * The 403 for a denied route. Its message and `details` say what was needed, so a client can show
 * "this needs the admin role" instead of a bare refusal: `permission` (the table entry),
 * `requiredRoles` (the roles holding it, empty for "self"), `role` (the caller's effective role) and
 * `demo` (true for the read-only demo visitor, who has to log in whatever the table says).
 */
function forbidden(access: RouteAccess, principal: Principal, method: string): ForbiddenError {
  const perm = access === "self" || access === "public" ? undefined : access;
  const requiredRoles: string[] = perm ? [...PERMISSIONS[perm].roles] : [];
  // An API key acts with the narrower of its own role and its owner's: name the one that lacks it.
  const role = !perm || roleHas(principal.role, perm) ? principal.ownerRole : principal.role;
  const details = { permission: access, requiredRoles, role, demo: principal.demo };
  if (principal.demo) {
    const message = READ_METHODS.has(method)
      ? "the demo visitor can't see this; log in to see it"
      : "the demo visitor is read-only; log in to make changes";
    return new ForbiddenError(message, details);
  }
  const needed = requiredRoles.length ? `the ${requiredRoles.join(" or ")} role` : "a signed-in user";
  return new ForbiddenError(`this needs ${needed}; your role is ${role}`, details);
}

/**
 * Cross-site request forgery guard for cookie-authenticated changes: a browser sends the session
 * cookie with any request to us, even one a foreign page makes, but it also says where the request
 * comes from. A change is let through only when `Sec-Fetch-Site` says same-origin (or none: typed by
 * the user) or, from browsers without it, `Origin` names this host. With neither header there is no
 * proof, so it is refused too. Basic and API-key callers are not affected: a foreign page can't make
 * a browser send those.
 */
export function crossSiteProblem(
  req: FastifyRequest,
  allowedOrigins: readonly string[] = [],
  opts: { requireProof?: boolean } = {},
): string | undefined {
  const site = req.headers["sec-fetch-site"];
  if (typeof site === "string" && site) {
    return site === "same-origin" || site === "none" ? undefined : `Sec-Fetch-Site is ${site}`;
  }
  const origin = req.headers.origin;
  if (typeof origin !== "string" || !origin) {
    return opts.requireProof === false ? undefined : "the request has neither an Origin nor a Sec-Fetch-Site header";
  }
  if (allowedOrigins.includes(origin.toLowerCase())) return undefined;
  let from: URL;
  let self: URL;
  try {
    from = new URL(origin);
    // Our own host in the Origin's scheme, so default ports compare equal (localhost:80 = localhost).
    self = new URL(`${from.protocol}//${req.host}`);
  } catch {
    return `Origin ${origin} is not a URL`;
  }
  return from.host === self.host
    ? undefined
    : `Origin ${origin} is not this console (${req.host}; CHAINLAUNCH_ALLOWED_ORIGINS adds others)`;
}

/**
 * Resolves the caller (API key, HTTP Basic, session cookie, or the demo visitor) and enforces the
 * route's declared access before validation or the handler run. Denials are audited.
 */
export function registerAuthHooks(
  app: FastifyInstance,
  deps: {
    auth: AuthService;
    apiKeys: ApiKeysService;
    audit: AuditService;
    demoMode: boolean;
    allowedOrigins?: readonly string[];
  },
): void {
  app.decorateRequest("principal", null);
  // Created on first use, per request (Fastify forbids shared object decorators). Not in onRequest:
  // a hook registered before ours may refuse the request, and the onResponse hook still audits it.
  app.decorateRequest("auditInfo", {
    getter(this: FastifyRequest & { [AUDIT_INFO]?: FastifyRequest["auditInfo"] }) {
      return (this[AUDIT_INFO] ??= {});
    },
    setter(this: FastifyRequest & { [AUDIT_INFO]?: FastifyRequest["auditInfo"] }, value: FastifyRequest["auditInfo"]) {
      this[AUDIT_INFO] = value;
    },
  });
  app.decorateRequest("auditDone", false);

  app.addHook("onRoute", (route) => requireAccessRule(route.method, route.url, route.config));

  async function resolve(req: FastifyRequest): Promise<Principal | null> {
    const key = presentedApiKey(req);
    if (key !== undefined) {
      const p = await deps.apiKeys.authenticate(key);
      if (!p) throw new UnauthorizedError("invalid, expired or revoked API key");
      return p;
    }
    const auth = req.headers.authorization;
    if (auth && /^basic /i.test(auth)) {
      const creds = parseBasic(auth);
      if (!creds) throw new UnauthorizedError("malformed Basic credentials");
      return deps.auth.fromBasic(creds.username, creds.password, req.ip);
    }
    const cookie = req.cookies?.[SESSION_COOKIE];
    if (cookie) {
      const p = await deps.auth.fromSession(cookie);
      if (p) return p;
    }
    return deps.demoMode ? DEMO_PRINCIPAL : null;
  }

  app.addHook("onRequest", async (req) => {
    const access = req.routeOptions.config?.access;
    if (!access) return;
    req.principal = access === "public" ? await resolve(req).catch(() => null) : await resolve(req);
    if (req.principal?.via === "session" && !READ_METHODS.has(req.method)) {
      const problem = crossSiteProblem(req, deps.allowedOrigins);
      if (problem) {
        throw new ForbiddenError(
          `cross-site request refused: ${problem}; changes made with the session cookie must come from the console itself (or use HTTP Basic or an API key)`,
        );
      }
    }
    if (isAllowed(access, req.principal, req.method)) return;
    if (!req.principal) throw new UnauthorizedError();
    req.auditDone = true;
    await deps.audit.record({
      eventType: "permission.denied",
      outcome: "FAILURE",
      severity: "WARNING",
      userId: req.principal.userId || null,
      username: req.principal.username,
      sourceIp: req.ip,
      requestId: String(req.id),
      sessionId: req.principal.sessionId ? String(req.principal.sessionId) : null,
      resource: req.routeOptions.url ?? req.url,
      details: { method: req.method, path: req.url.split("?")[0], required: access, role: req.principal.role },
    });
    throw forbidden(access, req.principal, req.method);
  });

  // A request's API-key use and audit entry are written before its answer
  // leaves: whoever got the answer can read both, and the key's log lists
  // requests in the order they were answered (ids follow the writes; written
  // after the answer, two quick requests could swap). Neither write can fail
  // the request: both catch and log.
  app.addHook("onSend", async (req, reply, payload) => {
    const p = req.principal;
    if (p?.via === "api_key" && p.apiKeyId !== undefined) {
      await deps.apiKeys
        .recordUse({
          apiKeyId: p.apiKeyId,
          method: req.method,
          path: req.url.split("?")[0] ?? req.url,
          status: reply.statusCode,
          ip: req.ip,
          userAgent: req.headers["user-agent"],
        })
        .catch((err: unknown) => req.log.error({ err }, "failed to log API key use"));
    }
    const eventType = req.routeOptions.config?.audit;
    if (!eventType || req.auditDone) return payload;
    req.auditDone = true;
    const ok = reply.statusCode < 400;
    const info = req.auditInfo;
    await deps.audit.record({
      eventType,
      outcome: ok ? "SUCCESS" : "FAILURE",
      userId: info.userId ?? (p?.userId || null),
      username: info.username ?? p?.username ?? null,
      sourceIp: req.ip,
      requestId: String(req.id),
      sessionId: p?.sessionId ? String(p.sessionId) : null,
      resource: info.resource ?? null,
      details: { method: req.method, path: req.url.split("?")[0], status: reply.statusCode, ...info.details },
    });
    return payload;
  });
}
