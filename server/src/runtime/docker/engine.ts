import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type Docker from "dockerode";
import { RuntimeError } from "../errors.js";

/** Where a Docker engine answers: a unix socket or tcp://host:port, with TLS client material for tcp. */
export interface DockerEndpoint {
  /** Shown to users: "local", or the name an admin gave it. */
  name: string;
  /** unix:///var/run/docker.sock or tcp://host:2376. */
  host: string;
  tls?: { ca: string; cert: string; key: string };
}

const DEFAULT_SOCKET = "/var/run/docker.sock";

/**
 * The engine the console uses when none is chosen: CHAINLAUNCH_DOCKER_HOST, else DOCKER_HOST, else
 * the default socket when it exists. Undefined when there is none.
 */
export function defaultDockerEndpoint(env: NodeJS.ProcessEnv = process.env): DockerEndpoint | undefined {
  const host = env.CHAINLAUNCH_DOCKER_HOST || env.DOCKER_HOST;
  if (host) return { name: "local", host };
  if (existsSync(DEFAULT_SOCKET)) return { name: "local", host: `unix://${DEFAULT_SOCKET}` };
  return undefined;
}

/** dockerode, loaded on first use: a console that runs no container never loads it (nor ssh2). */
let DockerCtor: typeof Docker | undefined;
const load = (): typeof Docker => (DockerCtor ??= createRequire(import.meta.url)("dockerode") as typeof Docker);

/** An Engine API client for the endpoint (no CLI involved). */
export function dockerClient(endpoint: DockerEndpoint): Docker {
  const Docker = load();
  const host = endpoint.host;
  if (host.startsWith("unix://")) return new Docker({ socketPath: host.slice("unix://".length) });
  if (host.startsWith("/")) return new Docker({ socketPath: host });
  const m = /^(tcp|https?):\/\/([^:/]+|\[[^\]]+\]):(\d+)\/?$/.exec(host);
  if (!m) {
    throw new RuntimeError("DOCKER_UNAVAILABLE", `docker host "${host}": expected unix:///path or tcp://host:port`);
  }
  const [, scheme, hostname, port] = m as unknown as [string, string, string, string];
  const tls = endpoint.tls;
  return new Docker({
    host: hostname.replace(/^\[|\]$/g, ""),
    port: Number(port),
    protocol: tls || scheme === "https" ? "https" : "http",
    ...(tls ? { ca: tls.ca, cert: tls.cert, key: tls.key } : {}),
  });
}

/** Asks the engine for its version; a clear error names the endpoint when it does not answer. */
export async function pingEngine(
  docker: Docker,
  endpoint: DockerEndpoint,
  timeoutMs = 5000,
): Promise<{ version: string; apiVersion: string }> {
  const abort = AbortSignal.timeout(timeoutMs);
  try {
    const version = docker.version.bind(docker) as unknown as (
      o: object,
    ) => Promise<{ Version: string; ApiVersion: string }>;
    const v = await version({ abortSignal: abort });
    return { version: v.Version, apiVersion: v.ApiVersion };
  } catch (err) {
    const why = abort.aborted ? `no answer within ${timeoutMs} ms` : (err as Error).message;
    throw new RuntimeError(
      "DOCKER_UNAVAILABLE",
      `the Docker engine "${endpoint.name}" at ${endpoint.host} does not answer (${why}); start dockerd or choose mode "service"`,
      { engine: endpoint.name },
    );
  }
}

/**
 * Whether this console itself runs in a container: Docker leaves /.dockerenv, Podman
 * /run/.containerenv, and on cgroup v1 the init process's cgroup names the runtime. A guess that
 * can miss (cgroup v2 namespaces hide the path), so it only informs (GET /nodes/deployment-modes).
 */
export function runningInContainer(): boolean {
  if (existsSync("/.dockerenv") || existsSync("/run/.containerenv")) return true;
  try {
    return /docker|containerd|kubepods|libpod/.test(readFileSync("/proc/1/cgroup", "utf8"));
  } catch {
    return false;
  }
}
