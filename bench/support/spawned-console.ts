/**
 * A console run as `make start` runs it (`node server/bundle/main.js serve`, its own process), for the
 * benches that measure what only a separate process shows: its start-up, its RSS and its CPU seconds
 * from /proc. Ports come from the tests' allocator (below Linux's ephemeral range), never a fixed one.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseStartupTrace, type StartupTrace } from "../../server/src/startup-trace.js";
import { freePort, releasePorts } from "../../server/src/test-support/ports.js";
import { load1, processCpuSeconds } from "./conditions.js";
import { BENCH_PASSWORD } from "./console.js";

const serverDir = resolve(dirname(fileURLToPath(import.meta.url)), "../../server");

/** The built entry points: the bundle `make start` runs, and the unbundled tsc output for comparison. */
export const ENTRIES = {
  bundle: join(serverDir, "bundle/main.js"),
  dist: join(serverDir, "dist/main.js"),
} as const;

/** Exits with a message naming the build command when the bundle is missing. */
export function requireBundle(): void {
  if (!existsSync(ENTRIES.bundle)) {
    console.error(`no ${ENTRIES.bundle}: run npm run build -w server`);
    process.exit(2);
  }
}

/** A started console process; `stop` ends it (SIGTERM, then SIGKILL after 10 s). */
export interface ConsoleProcess {
  child: ChildProcess;
  pid: number;
  base: string;
  /** The last 2 KB of its stderr, to name why it exited. */
  stderrTail(): string;
  /** Whether bundle/main.js started from its V8 code cache ("used", "rejected", "none"); undefined for other entries. */
  codeCache(): string | undefined;
  /** Its start-up trace (phase → ms since its process started), once it listens; undefined before. */
  startupTrace(): StartupTrace | undefined;
  stop(): Promise<void>;
}

/**
 * Spawns `node [nodeArgs] <entry> serve` on `port` with `dataDir`, logging only warnings to a captured
 * stderr. The child is node itself (no shell), so its pid is the console's for /proc readings.
 */
export function spawnConsole(entry: string, dataDir: string, port: number, nodeArgs: string[] = []): ConsoleProcess {
  const child = spawn(process.execPath, [...nodeArgs, entry, "serve"], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      CHAINLAUNCH_DATA: dataDir,
      CHAINLAUNCH_ADMIN_PASSWORD: BENCH_PASSWORD,
      CHAINLAUNCH_FABRIC_DOWNLOAD: "0",
      LOG_LEVEL: "warn",
      // bundle/main.js says on stderr whether its code cache was used (a start without it is ~0.2 s slower).
      CHAINLAUNCH_CODE_CACHE: "report",
      // One stderr line, once it listens: where the start-up spent its time (server/src/startup-trace.ts).
      CHAINLAUNCH_STARTUP_TRACE: "1",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let tail = "";
  let codeCache: string | undefined;
  let trace: StartupTrace | undefined;
  child.stderr?.on("data", (b: Buffer) => {
    tail = (tail + b.toString()).slice(-2048);
    codeCache ??= /chainlaunch: code cache (\w+)/.exec(tail)?.[1];
    trace ??= parseStartupTrace(tail);
  });
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  return {
    child,
    pid: child.pid ?? 0,
    base: `http://127.0.0.1:${port}`,
    stderrTail: () => tail.trim(),
    codeCache: () => codeCache,
    startupTrace: () => trace,
    async stop(): Promise<void> {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
        await exited;
        clearTimeout(killer);
      }
    },
  };
}

/** The first 200 on /healthz: milliseconds since `t0` and the console's CPU seconds read at that moment. */
export interface Healthy {
  ms: number;
  cpuS: number | null;
}

/**
 * Polls `/healthz` every 5 ms until the first 200. Throws an error naming why when it doesn't come:
 * the timeout with the last error and the load, or the exit code and stderr of a console that died.
 */
export async function waitHealthy(c: ConsoleProcess, t0: number, timeoutMs = 30_000): Promise<Healthy> {
  let lastError = "no answer yet";
  while (performance.now() - t0 < timeoutMs) {
    if (c.child.exitCode !== null || c.child.signalCode !== null) {
      const how = c.child.exitCode !== null ? `code ${c.child.exitCode}` : `signal ${c.child.signalCode}`;
      throw new Error(
        `the console exited with ${how} before answering /healthz (stderr: ${c.stderrTail() || "empty"})`,
      );
    }
    try {
      const r = await fetch(`${c.base}/healthz`);
      await r.arrayBuffer();
      if (r.status === 200) {
        const cpuS = processCpuSeconds(c.pid);
        return { ms: Math.round(performance.now() - t0), cpuS };
      }
      lastError = `status ${r.status}`;
    } catch (err) {
      const cause = (err as Error & { cause?: { code?: string } }).cause;
      lastError = cause?.code ?? (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(
    `timed out after ${Math.round(timeoutMs / 1000)} s waiting for the first 200 on /healthz ` +
      `(last error: ${lastError}; load ${load1()})`,
  );
}

/** A console on a fresh data directory and a free port, answering; `close` stops it and removes both. */
export async function startSpawnedConsole(
  tag: string,
  entry: string = ENTRIES.bundle,
  timeoutMs = 60_000,
  nodeArgs: string[] = [],
) {
  const dataDir = mkdtempSync(join(tmpdir(), `cl-bench-${tag}-`));
  const port = await freePort();
  const c = spawnConsole(entry, dataDir, port, nodeArgs);
  const close = async (): Promise<void> => {
    await c.stop();
    releasePorts(port);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitHealthy(c, performance.now(), timeoutMs);
  } catch (err) {
    await close();
    throw err;
  }
  return { ...c, dataDir, port, close };
}
