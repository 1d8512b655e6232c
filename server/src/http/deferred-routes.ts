/**
 * Module routes added to Fastify on first use (issue 34, decision 75).
 *
 * Fastify adds a route in ~0.1 ms of CPU and ~20 KB of heap, and it can't add one once it listens: the
 * ~410 API routes were a third of every start. So the modules declare their routes on a stand-in
 * (`recordRoutes`), which keeps each declaration as it was made. The server registers one route for all
 * of them (`/api/v1/*`, the `forward` route); its first hook hands the request, untouched, to the Fastify
 * instance that holds the routes of the path's first segment (`/organizations`, `/nodes`, ...), made on
 * the first request for that segment with the same hooks, parsers and error handling as the server
 * (`createDeferredRoutes`). A request is answered by exactly the route, hooks and handler it had before;
 * the first one of a segment waits a few milliseconds more.
 *
 * The route table (`RouteEntry`, the permissions doc, the RBAC tests, MCP's tools) is filled as the
 * modules declare, in the order Fastify's `onRoute` saw before. The OpenAPI document comes from one
 * instance holding every route (`replay` of the whole recording), built on its first request.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyBaseLogger, FastifyInstance, RouteOptions } from "fastify";
import { requireAccessRule } from "./auth-hooks.js";
import type { RouteAccess } from "./permissions.js";

/** One API route and its declared access rule (the RBAC test and the permissions doc walk these). */
export interface RouteEntry {
  method: string;
  url: string;
  access: RouteAccess;
  audit: string | undefined;
  websocket: boolean;
}

/** The table's entries of one route: one per method (HEAD, answered by the GET, is none). */
export function routeEntries(
  method: string | string[],
  url: string,
  config: { access?: RouteAccess; audit?: string } | undefined,
  websocket: boolean,
): RouteEntry[] {
  if (!config?.access) return [];
  const access = config.access;
  return [method]
    .flat()
    .filter((m) => m !== "HEAD")
    .map((m) => ({ method: m, url, access, audit: config.audit, websocket }));
}

/** What a module did on its route scope, kept so it can be done again on a real instance. */
export type RecordedCall =
  | {
      kind: "route";
      options: RouteOptions;
      /** The full path below the API prefix ("/organizations/:id"). */
      path: string;
      /** Registered on the server itself at once (websocket routes): not forwarded. */
      eager: boolean;
    }
  | { kind: "scope"; calls: RecordedCall[]; options: { prefix?: string } | undefined }
  | { kind: "call"; name: ScopeCall; args: unknown[] };

/** The scope methods a module may call inside a nested `register` (content types, request hooks). */
type ScopeCall = "addContentTypeParser" | "removeContentTypeParser" | "removeAllContentTypeParsers" | "addHook";

/** Hooks about the server's life, not a request's: these go to the server at once. */
const SERVER_HOOKS = new Set(["onReady", "onClose", "preClose", "onListen", "onRegister"]);

const SHORTHANDS = { get: "GET", post: "POST", put: "PUT", delete: "DELETE", patch: "PATCH" } as const;

/** Marks the route that forwards to the deferred routes (`config.forward`). */
export const FORWARD_CONFIG = { access: "public", forward: true } as const;

/** A route declaration as Fastify's shorthands make it: `get(url, handler)` or `get(url, options, handler)`. */
function shorthand(method: string, url: string, a: unknown, b: unknown): RouteOptions {
  if (typeof a === "function") return { method, url, handler: a } as RouteOptions;
  const options = (a ?? {}) as Partial<RouteOptions>;
  return { ...options, method, url, handler: (b ?? options.handler) as RouteOptions["handler"] } as RouteOptions;
}

function joinPath(prefix: string, url: string): string {
  return url === "/" && prefix ? prefix : prefix + url;
}

/** Websocket routes are registered on the server itself: the upgrade is answered there. */
function isEager(options: RouteOptions): boolean {
  const o = options as RouteOptions & { websocket?: unknown; wsHandler?: unknown };
  return !!o.websocket || typeof o.wsHandler === "function";
}

export interface RouteRecording {
  /** The stand-in the modules declare their routes on (a FastifyInstance for what they use). */
  api: FastifyInstance;
  /** Every declaration, in order. */
  calls: RecordedCall[];
}

/**
 * A stand-in for `real` (the server's `/api/v1` scope) that records route declarations instead of adding
 * them. Each route's access rule is checked as it is declared (as the auth hooks' `onRoute` did), and
 * its entry goes to `routes`. Server hooks (`onReady`, `onClose`) go to `real`; websocket routes too.
 * A nested `register` runs when Fastify would have run it (after the enclosing function), on a stand-in
 * of its own, so the route table keeps Fastify's order. Anything else a module might call is refused
 * by name at start-up, so nothing is silently lost.
 */
export function recordRoutes(real: FastifyInstance, opts: { prefix: string; routes: RouteEntry[] }): RouteRecording {
  const calls: RecordedCall[] = [];
  return { api: scopeRecorder(real, "", calls, opts, true), calls };
}

function scopeRecorder(
  real: FastifyInstance,
  scopePrefix: string,
  calls: RecordedCall[],
  opts: { prefix: string; routes: RouteEntry[] },
  top: boolean,
): FastifyInstance {
  const route = (options: RouteOptions): FastifyInstance => {
    const path = joinPath(scopePrefix, options.url);
    const url = opts.prefix + path;
    const config = options.config as { access?: RouteAccess; audit?: string } | undefined;
    requireAccessRule(options.method, url, config);
    const eager = isEager(options);
    // The server's own onRoute hook lists an eager route, as it lists the server's other routes.
    if (eager) real.route(options);
    else opts.routes.push(...routeEntries(options.method, url, config, false));
    calls.push({ kind: "route", options, path, eager });
    return stand;
  };
  const target: Record<string, unknown> = {
    route,
    withTypeProvider: () => stand,
    register(fn: (scope: FastifyInstance, options: unknown) => unknown, options?: { prefix?: string }) {
      const inner: RecordedCall[] = [];
      calls.push({ kind: "scope", calls: inner, options });
      // A real (empty) plugin, so that the nested declarations run when Fastify would run them.
      void real.register(async (realScope) => {
        await fn(
          scopeRecorder(realScope, joinPath(scopePrefix, options?.prefix ?? ""), inner, opts, false),
          options ?? {},
        );
      });
      return stand;
    },
    addHook(name: string, fn: unknown) {
      if (SERVER_HOOKS.has(name)) {
        (real.addHook as (n: string, f: unknown) => void)(name, fn);
      } else if (!top) {
        calls.push({ kind: "call", name: "addHook", args: [name, fn] });
      } else {
        throw new Error(
          `deferred routes: a "${name}" hook on the API scope would not reach the deferred routes; add it in a nested register`,
        );
      }
      return stand;
    },
    addContentTypeParser: (...args: unknown[]) => record("addContentTypeParser", args),
    removeContentTypeParser: (...args: unknown[]) => record("removeContentTypeParser", args),
    removeAllContentTypeParsers: (...args: unknown[]) => record("removeAllContentTypeParsers", args),
    getDefaultJsonParser: real.getDefaultJsonParser.bind(real),
    inject: real.inject.bind(real),
    log: real.log,
    prefix: opts.prefix + scopePrefix,
  };
  for (const [name, method] of Object.entries(SHORTHANDS)) {
    target[name] = (url: string, a: unknown, b: unknown) => route(shorthand(method, url, a, b));
  }
  function record(name: ScopeCall, args: unknown[]): FastifyInstance {
    if (top) {
      throw new Error(
        `deferred routes: ${name} on the API scope would not reach the deferred routes; use a nested register`,
      );
    }
    calls.push({ kind: "call", name, args });
    return stand;
  }
  const stand = new Proxy(target, {
    get(t, key) {
      if (typeof key === "string" && key in t) return t[key];
      // `then`: the stand-in is not a promise (an `await` of it must not wait on Fastify's boot).
      if (key === "then") return undefined;
      throw new Error(
        `deferred routes: ${String(key)} is not available on a module's route scope (http/deferred-routes.ts)`,
      );
    },
  }) as unknown as FastifyInstance;
  return stand;
}

/** The first path segment below the prefix: "/organizations/:id" → "organizations". */
export function segmentOf(path: string): string {
  const rest = path.startsWith("/") ? path.slice(1) : path;
  const end = rest.indexOf("/");
  return end === -1 ? rest : rest.slice(0, end);
}

type RouteCall = RecordedCall & { kind: "route" };

/** The route declarations among `calls`, nested scopes' included, in order. */
function routesIn(calls: RecordedCall[]): RouteCall[] {
  return calls.flatMap((c) => (c.kind === "route" ? [c] : c.kind === "scope" ? routesIn(c.calls) : []));
}

/** Makes the recorded declarations again on `into`, the routes that `keep` takes (and their scopes). */
export function replay(calls: RecordedCall[], into: FastifyInstance, keep: (c: RouteCall) => boolean): void {
  for (const c of calls) {
    if (c.kind === "route") {
      if (keep(c)) into.route(c.options);
    } else if (c.kind === "call") {
      (into[c.name] as (...args: unknown[]) => unknown).apply(into, c.args);
    } else if (routesIn(c.calls).some(keep)) {
      void into.register(async (scope) => replay(c.calls, scope, keep), c.options ?? {});
    }
  }
}

export interface DeferredRoutes {
  /** The methods the forward route must take (those of the deferred routes). */
  methods: string[];
  /** Hands a request that the forward route matched to the instance of its segment. */
  dispatch(req: IncomingMessage, res: ServerResponse, wildcard: string): void;
  /** The segments made so far. */
  made(): string[];
  close(): Promise<void>;
}

/**
 * The deferred routes of `recording`, one Fastify instance per first path segment, each made on first
 * use by `make` (an instance with the server's hooks and plugins, not yet ready) and given the routes of
 * its segment under `prefix`.
 */
export function createDeferredRoutes(opts: {
  recording: RouteRecording;
  prefix: string;
  make: () => Promise<FastifyInstance>;
  log: FastifyBaseLogger;
}): DeferredRoutes {
  const segments = new Set<string>();
  const methods = new Set<string>();
  for (const c of routesIn(opts.recording.calls)) {
    if (c.eager) continue;
    segments.add(segmentOf(c.path));
    for (const m of [c.options.method].flat()) methods.add(m);
  }
  const pending = new Map<string, Promise<FastifyInstance>>();
  const ready = new Map<string, FastifyInstance>();
  let closed = false;

  async function build(segment: string): Promise<FastifyInstance> {
    const instance = await opts.make();
    await instance.register(
      async (api) =>
        replay(opts.recording.calls, api, (c) => !c.eager && segment !== "" && segmentOf(c.path) === segment),
      { prefix: opts.prefix },
    );
    await instance.ready();
    if (closed) {
      await instance.close();
      throw new Error("the server is closing");
    }
    ready.set(segment, instance);
    return instance;
  }

  /** The instance of one segment ("" for a path no deferred route starts with), made if needed. */
  function instance(segment: string): Promise<FastifyInstance> {
    const made = ready.get(segment);
    if (made) return Promise.resolve(made);
    let p = pending.get(segment);
    if (!p) {
      p = build(segment);
      pending.set(segment, p);
      // A failed build is tried again by the next request (and said in the log each time).
      p.catch(() => pending.delete(segment));
    }
    return p;
  }

  return {
    methods: [...methods],
    made: () => [...ready.keys()],
    dispatch(req, res, wildcard) {
      const first = segmentOf(wildcard);
      const segment = segments.has(first) ? first : "";
      const made = ready.get(segment);
      if (made) {
        made.routing(req, res);
        return;
      }
      instance(segment).then(
        (i) => i.routing(req, res),
        (err: unknown) => {
          opts.log.error({ err, segment }, "adding the routes of an API segment failed");
          if (res.headersSent) return res.destroy();
          res.statusCode = 500;
          res.setHeader("content-type", "application/json; charset=utf-8");
          res.end(JSON.stringify({ error: "INTERNAL", message: "internal server error" }));
        },
      );
    },
    async close() {
      closed = true;
      await Promise.allSettled([...pending.values()]);
      await Promise.all([...ready.values()].map((i) => i.close()));
      ready.clear();
    },
  };
}
