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
import { ensureProgramImage, type DockerRuntime } from "../../runtime/docker/index.js";
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
/**
 * Compose plugins on the console's Docker engine: `docker compose` (v2) when the CLI plugin is
 * installed, else `docker-compose` (v1, Debian's 1.29), both pointed at the engine with DOCKER_HOST.
 * Containers are listed through the Engine API by the project label, the same for both versions.
 * A compose file may use `{{ .runtime.nodeImage }}`: Node.js in an image the console builds here
 * (FROM scratch, no registry), with the built-ins bound in.
 */
export function createCompose(opts: { path: string | undefined; docker?: DockerRuntime | undefined }) {
  type Tool = { bin: string; pre: string[]; v1: boolean };
  let tool: Promise<Tool | undefined> | undefined;
  const find = (name: string): string | undefined => {
    const found = findExecutable(name, { envVar: "PATH", value: undefined }, opts.path);
    return "path" in found ? found.path : undefined;
  };
  const env = (): NodeJS.ProcessEnv => ({ ...minimalEnv(), DOCKER_HOST: opts.docker?.endpoint?.host ?? "" });
  const detect = async (): Promise<Tool | undefined> => {
    const docker = find("docker");
    if (docker) {
      const ok = await run(docker, ["compose", "version"], { timeout: 10_000, env: env() }).then(
        () => true,
        () => false,
      );
      if (ok) return { bin: docker, pre: ["compose"], v1: false };
    }
    const v1 = find("docker-compose");
    return v1 ? { bin: v1, pre: [], v1: true } : undefined;
  };
  const composeTool = async (): Promise<Tool> => {
    const t = await (tool ??= detect());
    if (!t) throw new Error("no docker compose");
    return t;
  };
  const args = (t: Tool, project: string, file: string): string[] => [...t.pre, "-p", project, "-f", file];
  const containersOf = async (project: string) =>
    (opts.docker as DockerRuntime)
      .client()
      .listContainers({ all: true, filters: JSON.stringify({ label: [`com.docker.compose.project=${project}`] }) });
  return {
    /** Whether compose plugins can run here, and if not, why (for the 400 and the deployment status). */
    async available(): Promise<{ ok: true } | { ok: false; reason: string }> {
      if (!opts.docker?.endpoint)
        return {
          ok: false,
          reason:
            "compose plugins need a Docker engine and none is configured (set CHAINLAUNCH_DOCKER_HOST or DOCKER_HOST, or start dockerd on /var/run/docker.sock). Use a plugin with spec.processes instead",
        };
      try {
        await opts.docker.ready();
      } catch (err) {
        return { ok: false, reason: `compose plugins need a running Docker engine: ${(err as Error).message}` };
      }
      if (!(await (tool ??= detect())))
        return {
          ok: false,
          reason:
            "compose plugins need docker compose (the docker CLI's compose plugin, or docker-compose), and neither is installed",
        };
      return { ok: true };
    },
    /** Images the console makes for compose files (`{{ .runtime.nodeImage }}`), built before `up` when used. */
    async prepareImages(text: string, nodeBinary: string): Promise<void> {
      if (!text.includes(NODE_IMAGE_PREFIX) || !opts.docker) return;
      await ensureProgramImage(opts.docker.client(), {
        tag: nodeImageTag(),
        programs: [{ src: nodeBinary, dest: "/usr/local/bin/node" }],
      });
    },
    async up(project: string, file: string): Promise<void> {
      const t = await composeTool();
      await run(t.bin, [...args(t, project, file), "up", "-d", "--remove-orphans", ...(t.v1 ? [] : ["--wait"])], {
        timeout: 600_000,
        maxBuffer: 16 * 1024 * 1024,
        env: env(),
      });
      if (!t.v1) return;
      // v1 has no --wait: every service's container must be running (and healthy, when it has a check).
      const deadline = Date.now() + 120_000;
      for (;;) {
        const cs = await containersOf(project);
        const bad = cs.find((c) => c.State === "exited" || c.State === "dead");
        if (bad) {
          const err = new Error(`service ${bad.Labels["com.docker.compose.service"]} exited: ${bad.Status}`);
          (err as { stderr?: string }).stderr =
            `service ${bad.Labels["com.docker.compose.service"]} exited: ${bad.Status}`;
          throw err;
        }
        if (cs.length && cs.every((c) => c.State === "running" && !/\(health: starting\)|unhealthy/.test(c.Status)))
          return;
        if (Date.now() > deadline) throw new Error("the compose services were not running within 120 s");
        await new Promise((r) => setTimeout(r, 250));
      }
    },
    async down(project: string, file: string): Promise<void> {
      const t = await composeTool();
      // -v: the project's anonymous and named volumes go too (nothing left behind).
      await run(t.bin, [...args(t, project, file), "down", "--remove-orphans", "-v"], {
        timeout: 300_000,
        env: env(),
      });
    },
    /** The project's containers, in the fields of `docker compose ps --format json`. */
    async ps(project: string, _file: string): Promise<Record<string, unknown>[]> {
      return (await containersOf(project)).map((c) => ({
        ID: c.Id,
        Name: (c.Names[0] ?? "").replace(/^\//, ""),
        Service: c.Labels["com.docker.compose.service"] ?? "",
        Image: c.Image,
        State: c.State,
        Health: /\(healthy\)/.test(c.Status) ? "healthy" : /unhealthy/.test(c.Status) ? "unhealthy" : "",
        Ports: c.Ports.filter((p) => p.PublicPort)
          .map((p) => `${p.IP}:${p.PublicPort}->${p.PrivatePort}/${p.Type}`)
          .join(", "),
        CreatedAt: new Date(c.Created * 1000).toISOString(),
      }));
    },
    async logs(project: string, file: string, service: string, tail: number): Promise<string> {
      const t = await composeTool();
      const { stdout, stderr } = await run(
        t.bin,
        [...args(t, project, file), "logs", "--no-color", "--tail", String(tail), service],
        { timeout: 30_000, maxBuffer: 16 * 1024 * 1024, env: env() },
      );
      return stdout + stderr;
    },
  };
}

/** The Node.js image compose plugins can use (`{{ .runtime.nodeImage }}`): this console's node. */
const NODE_IMAGE_PREFIX = "chainlaunch/node:";
export const nodeImageTag = (): string => `${NODE_IMAGE_PREFIX}${process.versions.node}`;

export type Compose = ReturnType<typeof createCompose>;
