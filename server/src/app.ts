import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import cookie from "@fastify/cookie";
import fastifyStatic from "@fastify/static";
import swagger, { type FastifyDynamicSwaggerOptions } from "@fastify/swagger";
import websocket from "@fastify/websocket";
import Fastify, { LogController, type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from "fastify";
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import type { Config } from "./config/config.js";
import { migrateToLatest, nowIso, openDatabase, SQLITE_FILE, type DatabaseHandle } from "./db/db.js";
import { createEventBus, type EventBus } from "./events/bus.js";
import { registerAuthHooks } from "./http/auth-hooks.js";
import { registerCompression } from "./http/compression.js";
import { registerErrorHandler } from "./http/error-handler.js";
import { registerFieldValidation } from "./http/field-validation.js";
import { lazyDefaultCompilers } from "./http/default-compilers.js";
import { validatorCompiler } from "./http/go-nulls.js";
import { registerJsonBodyParser } from "./http/json-body.js";
import { collapseLoneRefs, completeOperation, ERROR_RESPONSE_SCHEMA } from "./http/openapi-responses.js";
import { registerHeaderGuard } from "./http/header-guard.js";
import {
  createDeferredRoutes,
  FORWARD_CONFIG,
  recordRoutes,
  replay,
  routeEntries,
  type DeferredRoutes,
  type RouteEntry,
  type RouteRecording,
} from "./http/deferred-routes.js";
import { registerSecurityHeaders } from "./http/security-headers.js";
import "./http/fastify-types.js";
import { startupMark } from "./startup-trace.js";
import { createApiKeysRepo } from "./modules/api-keys/api-keys.repo.js";
import { createApiKeysService } from "./modules/api-keys/api-keys.service.js";
import { createAuditRepo } from "./modules/audit/audit.repo.js";
import { createAuditService } from "./modules/audit/audit.service.js";
import { createAuthService } from "./modules/auth/auth.service.js";
import { hashPassword } from "./modules/auth/password.js";
import { createFailureLimiter } from "./modules/auth/rate-limiter.js";
import { createSessionsRepo } from "./modules/auth/sessions.repo.js";
import type { AppContext } from "./modules/context.js";
import { registerModules } from "./modules/index.js";
import { deletePendingKeys } from "./modules/keys/keys.repo.js";
import { createUsersRepo, type UsersRepo } from "./modules/users/users.repo.js";

export const API_PREFIX = "/api/v1";
export const VERSION = "0.0.1-beta82";

export type { RouteEntry } from "./http/deferred-routes.js";

export interface BuiltApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  /** The in-process event bus (node supervisors and tests publish on it). */
  bus: EventBus;
  /** Every API route with its declared access rule (the RBAC test walks this). */
  routes: RouteEntry[];
  /** The OpenAPI document (made on first use, from an instance holding every route). */
  openapi(): Promise<Record<string, unknown>>;
  /** The module routes, added to Fastify per path segment on first use (http/deferred-routes.ts). */
  deferred: DeferredRoutes;
  /** Set when this boot created the first admin with a generated password (shown once). */
  generatedAdminPassword: string | undefined;
  close(): Promise<void>;
  /** Where a close stands ("modules (federation)", "http server", "database"), for one that hangs. */
  closeStep(): string;
}

const REDACT = [
  "req.headers.authorization",
  "req.headers.cookie",
  'req.headers["x-api-key"]',
  "*.password",
  "*.new_password",
  "*.current_password",
  "*.key",
  "*.privateKey",
];

function defaultWebDist(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  return resolve(here, "../../web/dist");
}

/** The web app's files as URL paths ("/assets/x.js"), read once (on first use) as the build left them. */
function webFiles(root: string): Set<string> {
  const out = new Set<string>();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath ?? entry.path, entry.name)
      .slice(root.length)
      .split("\\")
      .join("/");
    const url = path.startsWith("/") ? path : `/${path}`;
    // Dot files were never served (the per-file routes left them out too).
    if (!url.split("/").some((segment) => segment.startsWith("."))) out.add(url);
  }
  return out;
}

/** The first admin's password (given, or generated to be shown once) and its hash, being computed. */
interface FirstAdminPassword {
  generated: string | undefined;
  hash: Promise<string>;
}

function firstAdminPassword(password: string | undefined): FirstAdminPassword {
  const generated = password ? undefined : randomBytes(12).toString("base64url");
  const hash = hashPassword(password ?? generated!);
  // Awaited only if the admin is created; a failure is then thrown there.
  hash.catch(() => undefined);
  return { generated, hash };
}

async function ensureFirstAdmin(
  users: UsersRepo,
  password: string | undefined,
  early: FirstAdminPassword | undefined,
): Promise<string | undefined> {
  if ((await users.count()) > 0) return undefined;
  const { generated, hash } = early ?? firstAdminPassword(password);
  const now = nowIso();
  await users.insert({
    username: "admin",
    password_hash: await hash,
    role: "admin",
    created_at: now,
    updated_at: now,
    last_login_at: null,
  });
  return generated;
}

/** How long a shutdown waits for in-flight requests before it closes their connections. */
const HTTP_DRAIN_MS = 10_000;

/** How often a start that is still not ready says what it waits on. */
const STARTUP_WATCHDOG_MS = 10_000;

/** What a start is doing, for the watchdog's message. */
export interface StartupWatch {
  step: string;
  log?: Pick<FastifyInstance["log"], "warn">;
}

/**
 * Says every `everyMs`, in `watch.log`, what a start is still waiting on (`watch.step`), until the returned
 * function is called. Fastify's per-plugin timeouts are off (pluginTimeout below), so a start that hangs
 * says where, instead of failing one plugin after 10 s.
 */
export function startupWatchdog(watch: StartupWatch, everyMs: number): () => void {
  const started = Date.now();
  const timer = setInterval(() => {
    const seconds = Math.round((Date.now() - started) / 1000);
    watch.log?.warn({ step: watch.step, seconds }, `start-up: still waiting on ${watch.step} after ${seconds} s`);
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** Builds the whole server: database, migrations, services, routes, OpenAPI and the web app. */
export async function buildApp(config: Config): Promise<BuiltApp> {
  const watch: StartupWatch = { step: "the database" };
  const stop = startupWatchdog(watch, STARTUP_WATCHDOG_MS);
  try {
    return await assembleApp(config, watch);
  } finally {
    stop();
  }
}

/** Fastify's options: the same for the server and for each instance of deferred routes (http/deferred-routes.ts). */
function fastifyOptions(config: Config) {
  return {
    genReqId: (req) => {
      const incoming = req.headers["x-request-id"];
      return typeof incoming === "string" && /^[A-Za-z0-9._-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    schemaController: { compilersFactory: lazyDefaultCompilers },
    // avvio arms a 10 s timer for every plugin and for every route's registration callback (~400 timers, ~15 ms
    // of each start, issue 34). Off; the start-up watchdog (buildApp) says instead what a start still waits on.
    pluginTimeout: 0,
    // HEAD is answered by the GET route, as HTTP means it: the request is routed as a GET, and Node sends
    // no body for it (it decided so from the HEAD request line). Fastify's alternative, a HEAD twin of each
    // of the ~200 GET routes, was a third of the routes registered at every start (issue 34).
    exposeHeadRoutes: false,
    rewriteUrl: (req) => {
      if (req.method === "HEAD") req.method = "GET";
      return req.url ?? "/";
    },
  } satisfies FastifyServerOptions;
}

/** What the request hooks need, for the server and for each instance of deferred routes. */
interface HttpDeps {
  config: Config;
  auth: AppContext["auth"];
  apiKeys: AppContext["apiKeys"];
  audit: AppContext["audit"];
  /** The web app is built: page paths that match no route get its index.html. */
  spa: boolean;
}

/**
 * Everything a request passes through besides its route: compilers, response headers, cookies,
 * compression, websocket upgrades, error and not-found handling, body parsing, field validation,
 * authentication and audit. The server and each instance of deferred routes are configured alike, so a
 * route answers the same wherever it is registered.
 */
async function configureHttp(app: FastifyInstance, deps: HttpDeps): Promise<void> {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // A callback, not an async function: no promise per answer (issue 34).
  app.addHook("onSend", (req, reply, payload, done) => {
    reply.header("x-request-id", String(req.id));
    done(null, payload);
  });
  registerSecurityHeaders(app);
  registerHeaderGuard(app);
  await app.register(cookie);
  await registerCompression(app);
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  registerErrorHandler(app, { spa: deps.spa });
  registerJsonBodyParser(app);
  registerFieldValidation(app);
  const { config, auth, apiKeys, audit } = deps;
  registerAuthHooks(app, { auth, apiKeys, audit, demoMode: config.demoMode, allowedOrigins: config.allowedOrigins });
}

function swaggerOptions(): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: "3.0.3",
      info: {
        title: "ChainLaunch API",
        version: VERSION,
        description: "Operate Hyperledger Fabric and Besu infrastructure",
      },
      servers: [{ url: API_PREFIX }],
      components: {
        securitySchemes: {
          cookieAuth: { type: "apiKey", in: "cookie", name: "session_id" },
          basicAuth: { type: "http", scheme: "basic" },
          bearerAuth: { type: "http", scheme: "bearer" },
          apiKeyAuth: { type: "apiKey", in: "header", name: "X-API-Key" },
        },
      },
      security: [{ cookieAuth: [] }, { basicAuth: [] }, { bearerAuth: [] }, { apiKeyAuth: [] }],
    },
    transformObject: (args) => {
      const doc = jsonSchemaTransformObject(args) as { components?: { schemas?: Record<string, unknown> } };
      // By name: a component is registered when its schema is first built (lazySchema), which depends on
      // the requests served before; the document must not.
      const schemas: Record<string, unknown> = { ...doc.components?.schemas, ErrorResponse: ERROR_RESPONSE_SCHEMA };
      doc.components = {
        ...doc.components,
        schemas: Object.fromEntries(
          Object.keys(schemas)
            .sort()
            .map((name) => [name, schemas[name]]),
        ),
      };
      return collapseLoneRefs(doc) as ReturnType<typeof jsonSchemaTransformObject>;
    },
    transform: (args) => {
      const out = jsonSchemaTransform(args);
      const method = [args.route.method].flat()[0] ?? "GET";
      const access = (args.route.config as { access?: string } | undefined)?.access;
      const schema = completeOperation(method, out.url, out.schema as Record<string, unknown>, access);
      return {
        ...out,
        schema: schema as typeof out.schema,
        url: out.url.startsWith(API_PREFIX) ? out.url.slice(API_PREFIX.length) || "/" : out.url,
      };
    },
  };
}

/** Whether Fastify matched a request to the route that forwards it to the deferred routes. */
function isForwarded(req: FastifyRequest): boolean {
  return (req.routeOptions.config as { forward?: boolean } | undefined)?.forward === true;
}

async function assembleApp(config: Config, watch: StartupWatch): Promise<BuiltApp> {
  const app = Fastify({
    logger: { level: config.logLevel, redact: { paths: REDACT, censor: "[redacted]" } },
    ...fastifyOptions(config),
    // A forwarded request is logged by the instance that answers it, once.
    logController: new LogController({ disableRequestLogging: isForwarded }),
  }).withTypeProvider<ZodTypeProvider>();
  // The first onRequest hook: a request for a deferred route goes, untouched, to the instance that holds
  // its segment's routes (http/deferred-routes.ts), which runs every hook below for it there.
  let deferred: DeferredRoutes | undefined;
  app.addHook("onRequest", (req, reply, done) => {
    if (!deferred || !isForwarded(req)) return done();
    reply.hijack();
    deferred.dispatch(req.raw, reply.raw, (req.params as Record<string, string | undefined>)["*"] ?? "");
  });
  watch.log = app.log;

  // A data directory without its SQLite file is a first start: the first admin's password hash (scrypt, ~50 ms
  // in libuv's thread pool) starts now, beside the migrations, rather than after them (issue 34).
  const early =
    !config.databaseUrl && !existsSync(join(config.dataDir, SQLITE_FILE))
      ? firstAdminPassword(config.adminPassword)
      : undefined;
  const database = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateToLatest(database);
  } catch (err) {
    await database.close();
    throw err;
  }
  startupMark("database");
  watch.step = "the plugins (cookie, compression, websocket)";
  const { db, dialect } = database;
  const orphans = await deletePendingKeys(db);
  if (orphans) app.log.warn({ keys: orphans }, "removed keys left pending by an interrupted creation");

  const usersRepo = createUsersRepo(db, dialect);
  // The first admin is created while the routes are registered and the onReady hooks run (its hash, on a first
  // start, since before the migrations); the admin row is there before the server is ready. Settled here so
  // that a failure is no unhandled rejection while it waits.
  const firstAdmin = ensureFirstAdmin(usersRepo, config.adminPassword, early).then(
    (password) => ({ password }),
    (err: unknown) => ({ err }),
  );
  const bus = createEventBus((err, event) => app.log.error({ err, eventType: event.type }, "event listener failed"));
  const audit = createAuditService({ repo: createAuditRepo(db), log: app.log });
  const auth = createAuthService({
    users: usersRepo,
    sessions: createSessionsRepo(db),
    limiter: createFailureLimiter({ max: config.loginMaxAttempts, windowMs: config.loginWindowMs }),
    sessionTtlMs: config.sessionTtlMs,
  });
  const apiKeys = createApiKeysService({ keys: createApiKeysRepo(db), users: usersRepo });
  const routes: RouteEntry[] = [];
  let recording: RouteRecording | undefined;
  const webDist = config.webDist ?? defaultWebDist();
  const httpDeps: HttpDeps = { config, auth, apiKeys, audit, spa: existsSync(join(webDist, "index.html")) };
  /** A Fastify instance configured like the server, for deferred routes or the OpenAPI document. */
  const instance = async (): Promise<FastifyInstance> => {
    const i = Fastify({ loggerInstance: app.log, ...fastifyOptions(config) });
    await configureHttp(i, httpDeps);
    return i;
  };
  // The document is made once, from an instance holding every route as it was declared (so in the same
  // order as when the server held them all), and closed after.
  let openapiDoc: Promise<Record<string, unknown>> | undefined;
  const openapi = (): Promise<Record<string, unknown>> =>
    (openapiDoc ??= (async () => {
      const calls = recording?.calls;
      if (!calls) throw new Error("the OpenAPI document is asked for before the routes are declared");
      const doc = await instance();
      try {
        await doc.register(swagger, swaggerOptions());
        await doc.register(async (api) => replay(calls, api, () => true), { prefix: API_PREFIX });
        await doc.ready();
        return doc.swagger() as unknown as Record<string, unknown>;
      } finally {
        await doc.close();
      }
    })().catch((err: unknown) => {
      openapiDoc = undefined;
      throw err;
    }));
  const ctx: AppContext = {
    routes,
    openapi,
    config,
    db,
    dialect,
    ...(database.sqlitePath ? { sqlitePath: database.sqlitePath } : {}),
    log: app.log,
    bus,
    audit,
    auth,
    apiKeys,
    usersRepo,
  };

  await configureHttp(app, httpDeps);
  startupMark("plugins");
  watch.step = "the modules' routes";
  app.addHook("onRoute", (route) => {
    const config = route.config as { access?: RouteEntry["access"]; audit?: string; forward?: boolean } | undefined;
    if (!route.url.startsWith(API_PREFIX) || config?.forward) return;
    routes.push(...routeEntries(route.method, route.url, config, !!route.websocket));
  });

  // 15 bytes, never worth compressing: the compressor's hook is left out (its first run loads Node's
  // fetch classes, ~25 ms, which the first health check of a start-up would otherwise wait for).
  app.get("/healthz", { schema: { hide: true }, compress: false }, async () => ({ status: "ok" }));

  let modules: ReturnType<typeof registerModules> | undefined;
  await app.register(
    async (api) => {
      recording = recordRoutes(api, { prefix: API_PREFIX, routes });
      modules = registerModules(recording.api, ctx);
      startupMark("routes");
      api.get("/openapi.json", { config: { access: "public" }, schema: { hide: true } }, async () => openapi());
      // After the modules' nested registers (Fastify runs them in order), so every route is recorded.
      void api.register(async (scope) => {
        const recorded = recording!;
        deferred = createDeferredRoutes({ recording: recorded, prefix: API_PREFIX, make: instance, log: app.log });
        scope.route({
          method: deferred.methods,
          url: "/*",
          config: FORWARD_CONFIG,
          compress: false,
          schema: { hide: true },
          handler: async () => {
            throw new Error("a forwarded request reached the forward route's handler");
          },
        });
      });
    },
    { prefix: API_PREFIX },
  );
  app.addHook("onClose", async () => deferred?.close());

  if (httpDeps.spa) {
    // preCompressed: the build writes .br and .gz beside each asset; those are sent as they are.
    // One wildcard route serves the files the build wrote (a route per file was ~1,000 routes and a
    // tenth of the start-up); any other path goes on to the not-found handler (the SPA fallback).
    // The list is read on the first request for a file, not at start-up (~4 ms of a start, issue 34).
    let files: Set<string> | undefined;
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: true,
      index: false,
      preCompressed: true,
      // sendFile("index.html") asks for a path without the leading slash.
      allowedPath: (pathname) =>
        (files ??= webFiles(webDist)).has(pathname.startsWith("/") ? pathname : `/${pathname}`),
    });
    app.get("/", { schema: { hide: true } }, (_req, reply) => reply.type("text/html").sendFile("index.html"));
  } else {
    app.log.warn({ webDist }, "web app not built; serving the API only");
  }

  startupMark("registered");
  watch.step = "the onReady hooks (master key, Docker engines, templates, schedulers)";
  await app.ready();
  // After the onReady hooks, which ran while its hash was still computing: the server is not ready before
  // the first admin exists (nothing can sign in before), and a start that can't create it fails.
  watch.step = "the first admin";
  const admin = await firstAdmin;
  if ("err" in admin) {
    await modules?.stop().catch(() => undefined);
    await app.close().catch(() => undefined);
    await database.close();
    throw admin.err;
  }
  const generatedAdminPassword = admin.password;
  startupMark("ready");
  let closeStep = "";
  return {
    app,
    database,
    bus,
    routes,
    openapi,
    deferred: deferred!,
    generatedAdminPassword,
    async close() {
      closeStep = "modules";
      await modules?.stop();
      closeStep = "http server";
      // In-flight requests get HTTP_DRAIN_MS to finish; then their connections are cut, so a request
      // that waits on something already gone (another console closing at the same time, say) can't
      // hold the shutdown forever.
      const drain = setTimeout(() => {
        app.log.warn("requests still open after the drain time of a shutdown: closing their connections");
        app.server.closeAllConnections();
      }, HTTP_DRAIN_MS);
      drain.unref();
      await app.close();
      clearTimeout(drain);
      closeStep = "database";
      await database.close();
      closeStep = "closed";
    },
    closeStep: () => (closeStep === "modules" && modules ? `modules (${modules.stopping()})` : closeStep),
  };
}
