/**
 * Where a start spends its time (issue 34): with CHAINLAUNCH_STARTUP_TRACE=1, `serve` writes one line to
 * stderr once it listens, naming each phase's end in milliseconds since the process started, e.g.
 * `chainlaunch: start-up ms node=58 code=110 modules=287 database=316 ... listening=489`.
 * bench/cold-start reads it. Off by default: a mark is then one comparison.
 */

/** The phases, in the order a start passes them. `node` and `code` come from bundle/main.js. */
export const STARTUP_PHASES = [
  // Node's own start-up, to the first line of bundle/main.js.
  "node",
  // bundle/main.js: the bundle read and compiled (from its code cache).
  "code",
  // Every module evaluated: zod schemas, routes' declarations (the bundle's top level).
  "modules",
  // The database opened and migrated.
  "database",
  // Fastify's plugins registered (cookies, compression, websocket).
  "plugins",
  // registerModules: services built, routes declared (recorded: http/deferred-routes.ts).
  "routes",
  // Fastify added the server's own routes (the forward route, the web app's files).
  "registered",
  // app.ready(): onReady hooks (master key, Docker engines, adopted nodes); the first admin exists.
  "ready",
  // Listening.
  "listening",
] as const;
export type StartupPhase = (typeof STARTUP_PHASES)[number];

/** Phase → ms: each reached phase's end (the trace), or its length (bench/cold-start). */
export type StartupTrace = Partial<Record<StartupPhase, number>>;

const KEY = Symbol.for("chainlaunch.startup-trace");
const marks: StartupTrace = ((globalThis as Record<symbol, unknown>)[KEY] as StartupTrace | undefined) ?? {};
(globalThis as Record<symbol, unknown>)[KEY] = marks;

export const startupTraceOn = process.env.CHAINLAUNCH_STARTUP_TRACE === "1";

/** Notes the end of `phase` (the first time only: `buildApp` also runs for `openapi`). */
export function startupMark(phase: StartupPhase): void {
  if (startupTraceOn && marks[phase] === undefined) marks[phase] = performance.now();
}

/** The trace line, phases in order; those not reached are left out. */
export function startupTraceLine(): string {
  const parts = STARTUP_PHASES.filter((p) => marks[p] !== undefined).map((p) => `${p}=${Math.round(marks[p]!)}`);
  return `chainlaunch: start-up ms ${parts.join(" ")}\n`;
}

/** Reads a trace line back (bench/cold-start): phase → ms since the process started. */
export function parseStartupTrace(text: string): StartupTrace | undefined {
  const line = /chainlaunch: start-up ms ([^\n]*)/.exec(text)?.[1];
  if (!line) return undefined;
  const out: StartupTrace = {};
  for (const [, name, ms] of line.matchAll(/(\w+)=(\d+)/g)) {
    if ((STARTUP_PHASES as readonly string[]).includes(name!)) out[name as StartupPhase] = Number(ms);
  }
  return out;
}
