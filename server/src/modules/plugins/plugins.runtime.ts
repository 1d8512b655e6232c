import { execFile } from "node:child_process";
import { request } from "node:http";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import {
  createSupervisor,
  findExecutable,
  minimalEnv,
  tcpConnects,
  type ProcessState,
  type ProcessSpec,
  type ReadinessProbe,
} from "../../runtime/index.js";
import { nodePrefix, type Sandbox, type SandboxPolicy } from "../../runtime/sandbox.js";

const run = promisify(execFile);

/** One process of a deployed plugin, with every template rendered: what is started and adopted. */
export interface RenderedProcess {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  ports: { name?: string; port: number; protocol: string }[];
  health?: { type: "http" | "tcp"; host: string; port: number; path: string; timeoutSeconds: number };
}

export const processId = (plugin: string, service: string): string => `plugin.${plugin}.${service}`;

/** Any 2xx from `GET http://host:port/path` (a plugin's own health endpoint). */
export function httpOk(url: string, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(url, { method: "GET", timeout: timeoutMs, signal }, (res) => {
      res.resume();
      resolve((res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300);
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(false));
    req.end();
  });
}

/** Checks a process's health check once; undefined when it has none. */
export async function checkHealth(
  p: RenderedProcess,
  timeoutMs = 1500,
  signal?: AbortSignal,
): Promise<boolean | undefined> {
  const h = p.health;
  if (!h) return undefined;
  return h.type === "http"
    ? httpOk(`http://${h.host}:${h.port}${h.path}`, timeoutMs, signal)
    : tcpConnects(h.host, h.port, timeoutMs, signal);
}

function probeOf(p: RenderedProcess): ReadinessProbe | undefined {
  if (!p.health) return undefined;
  return async ({ signal }) => (await checkHealth(p, 1500, signal)) === true;
}

/**
 * Plugin processes under their own supervisor (pid files, logs, crash restarts with backoff,
 * adoption after a console restart). `onGaveUp` hears of a process that crashed too often.
 */
export function createPluginProcesses(deps: {
  stateDir: string;
  onGaveUp(plugin: string, service: string, message: string): void;
  /** Every process runs in it, seeing its plugin's `run` (writable) and `secrets` (read-only) folders. */
  sandbox: Sandbox;
  /** The plugins' folder: `<dir>/<plugin>/run` and `<dir>/<plugin>/secrets`. */
  dir: string;
  /** The built-in programs (read-only inside). */
  builtinsDir: () => string;
}) {
  let closed = false;
  const supervisor = createSupervisor({
    stateDir: deps.stateDir,
    onEvent(e) {
      if (closed || e.type !== "status" || e.status !== "ERROR" || e.previous === "STOPPED") return;
      const m = /^plugin\.([a-z0-9-]+)\.(.+)$/.exec(e.id);
      if (m && e.previous !== "PENDING") deps.onGaveUp(m[1]!, m[2]!, e.errorMessage ?? "the process failed");
    },
  });
  const within = (path: string, dir: string): boolean => path === dir || path.startsWith(`${dir}/`);
  /**
   * A process's boundary: its plugin's run folder writable, its key files (0600, handed to its user) readable, node and the
   * built-ins read-only, and its command when that lies outside /usr (never a file of the data dir).
   */
  const policyOf = (plugin: string, p: RenderedProcess): SandboxPolicy => {
    const own = join(deps.dir, plugin);
    const runDir = join(own, "run");
    const cwd = resolve(p.cwd);
    if (!within(cwd, runDir)) {
      throw new Error(`workingDir ${p.cwd} is outside the plugin's folder ${runDir}; sandboxed processes run there`);
    }
    const dataDir = dirname(deps.dir);
    const command = resolve(p.command);
    const readOnly = [nodePrefix(), deps.builtinsDir()];
    if (!within(command, "/usr") && !within(command, runDir)) {
      if (within(command, dataDir)) {
        throw new Error(
          `command ${p.command} is a file of the console's data folder; sandboxed processes can't run it`,
        );
      }
      readOnly.push(command);
    }
    // The console removes `secrets` before each deploy writes it, so it can be the program's own.
    return { writable: [runDir], readOnly, handed: [join(own, "secrets")] };
  };
  const specOf = async (plugin: string, p: RenderedProcess, grant = true): Promise<ProcessSpec> => {
    const boxed = await deps.sandbox.wrap(
      // The console's basics, then the plugin's own variables.
      { command: p.command, args: p.args, env: { ...minimalEnv(), ...p.env }, cwd: p.cwd },
      policyOf(plugin, p),
      { grant },
    );
    return {
      id: processId(plugin, p.name),
      ...boxed,
      probe: probeOf(p),
      startTimeoutMs: (p.health?.timeoutSeconds ?? 60) * 1000,
    };
  };
  return {
    /** Starts one process and waits until it is ready (RUNNING) or has failed (ERROR). */
    start: async (plugin: string, p: RenderedProcess): Promise<ProcessState> =>
      supervisor.start(await specOf(plugin, p)),
    adopt: async (plugin: string, p: RenderedProcess): Promise<ProcessState> =>
      supervisor.adopt(await specOf(plugin, p, false)),
    async stop(plugin: string, service: string): Promise<void> {
      const id = processId(plugin, service);
      if (supervisor.get(id)) await supervisor.stop(id);
      supervisor.remove(id);
    },
    state: (plugin: string, service: string): ProcessState | undefined => supervisor.get(processId(plugin, service)),
    tail: (plugin: string, service: string, lines: number): Promise<string[]> =>
      supervisor.tailLog(processId(plugin, service), lines).catch(() => []),
    close(): void {
      closed = true;
      supervisor.close();
    },
  };
}

export type PluginProcesses = ReturnType<typeof createPluginProcesses>;

/** `docker compose` for compose plugins, one project per plugin. Only used when an engine answers. */
export function createCompose(opts: { path: string | undefined }) {
  const docker = (): string | undefined => {
    const found = findExecutable("docker", { envVar: "PATH", value: undefined }, opts.path);
    return "path" in found ? found.path : undefined;
  };
  const composeArgs = (project: string, file: string): string[] => ["compose", "-p", project, "-f", file];
  return {
    /** Whether compose plugins can run here, and if not, why (for the 400 and the deployment status). */
    async available(): Promise<{ ok: true } | { ok: false; reason: string }> {
      const bin = docker();
      if (!bin)
        return {
          ok: false,
          reason:
            "compose plugins need Docker (the docker CLI with the compose plugin and a running engine); no docker command is on this host's PATH. Use a plugin with spec.processes instead",
        };
      try {
        await run(bin, ["version", "--format", "{{.Server.Version}}"], { timeout: 5000 });
      } catch (err) {
        const msg = ((err as { stderr?: string }).stderr ?? (err as Error).message).trim().split("\n")[0];
        return { ok: false, reason: `compose plugins need a running Docker engine, and none answers: ${msg}` };
      }
      try {
        await run(bin, ["compose", "version"], { timeout: 5000 });
      } catch {
        return { ok: false, reason: "compose plugins need the docker compose plugin, which is not installed" };
      }
      return { ok: true };
    },
    async up(project: string, file: string): Promise<void> {
      await run(docker()!, [...composeArgs(project, file), "up", "-d", "--remove-orphans", "--wait"], {
        timeout: 600_000,
        maxBuffer: 16 * 1024 * 1024,
      });
    },
    async down(project: string, file: string): Promise<void> {
      await run(docker()!, [...composeArgs(project, file), "down", "--remove-orphans"], { timeout: 300_000 });
    },
    /** `docker compose ps` as objects (one JSON document per line, or one array on older versions). */
    async ps(project: string, file: string): Promise<Record<string, unknown>[]> {
      const { stdout } = await run(docker()!, [...composeArgs(project, file), "ps", "--all", "--format", "json"], {
        timeout: 30_000,
      });
      const text = stdout.trim();
      if (!text) return [];
      if (text.startsWith("[")) return JSON.parse(text) as Record<string, unknown>[];
      return text.split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    },
    async logs(project: string, file: string, service: string, tail: number): Promise<string> {
      const { stdout, stderr } = await run(
        docker()!,
        [...composeArgs(project, file), "logs", "--no-color", "--tail", String(tail), service],
        { timeout: 30_000, maxBuffer: 16 * 1024 * 1024 },
      );
      return stdout + stderr;
    },
  };
}

export type Compose = ReturnType<typeof createCompose>;
