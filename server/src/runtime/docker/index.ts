import type Docker from "dockerode";
import { RuntimeError } from "../errors.js";
import type { Supervisor, SupervisorOptions } from "../supervisor.types.js";
import { createContainerSupervisor } from "./container-supervisor.js";
import { consoleTagOf } from "./containers.js";
import { dockerClient, pingEngine, type DockerEndpoint } from "./engine.js";

export { consoleTagOf, containerName, createContainerSupervisor, LABEL } from "./container-supervisor.js";
export { defaultDockerEndpoint, dockerClient, pingEngine, runningInContainer, type DockerEndpoint } from "./engine.js";
export {
  buildImage,
  DEFAULT_IMAGE_REPOSITORIES,
  ensureFabricImage,
  ensureImage,
  ensureProgramImage,
} from "./images.js";
export { createRuntimeSupervisor, engineOf } from "./runtime-supervisor.js";

/** The console's Docker engines, as the modules that run containers see them. */
export interface DockerRuntime {
  /** The local engine (CHAINLAUNCH_DOCKER_HOST, DOCKER_HOST or the default socket), or undefined. */
  endpoint: DockerEndpoint | undefined;
  /** The Engine API client of an engine ("local" by default); throws DOCKER_UNAVAILABLE when there is none. */
  client(engine?: string): Docker;
  /** Resolves when the engine answers; throws DOCKER_UNAVAILABLE with what is missing. */
  ready(engine?: string): Promise<void>;
  /** A container supervisor on an engine, with its own state folder (logs), sharing the console's tag. */
  supervisor(opts: SupervisorOptions, engine?: string): Supervisor;
  /** The tag that names this console's containers (`chainlaunch-<tag>-<id>`). */
  consoleTag: string;
  /** Engines an admin registered (besides "local"), replaced as a whole. */
  setEngines(list: DockerEndpoint[]): void;
  /** Whether an engine of that name is known. */
  has(engine: string): boolean;
}

export function createDockerRuntime(p: { host: string | undefined; dataDir: string }): DockerRuntime {
  const endpoint: DockerEndpoint | undefined = p.host ? { name: "local", host: p.host } : undefined;
  const registered = new Map<string, DockerEndpoint>();
  const clients = new Map<string, { endpoint: DockerEndpoint; docker: Docker }>();
  const consoleTag = consoleTagOf(p.dataDir);
  const endpointOf = (engine: string): DockerEndpoint => {
    const e = engine === "local" ? endpoint : registered.get(engine);
    if (!e) {
      throw new RuntimeError(
        "DOCKER_UNAVAILABLE",
        engine === "local"
          ? "no Docker engine is configured: set CHAINLAUNCH_DOCKER_HOST (or DOCKER_HOST), or start dockerd on /var/run/docker.sock"
          : `no Docker engine named "${engine}" is registered`,
      );
    }
    return e;
  };
  const client = (engine = "local"): Docker => {
    const e = endpointOf(engine);
    const known = clients.get(engine);
    if (known && known.endpoint === e) return known.docker;
    const docker = dockerClient(e);
    clients.set(engine, { endpoint: e, docker });
    return docker;
  };
  return {
    endpoint,
    client,
    consoleTag,
    async ready(engine = "local") {
      await pingEngine(client(engine), endpointOf(engine));
    },
    supervisor(opts, engine = "local") {
      return createContainerSupervisor({ ...opts, docker: client(engine), endpoint: endpointOf(engine), consoleTag });
    },
    setEngines(list) {
      registered.clear();
      for (const e of list) if (e.name !== "local") registered.set(e.name, e);
    },
    has: (engine) => (engine === "local" ? endpoint !== undefined : registered.has(engine)),
  };
}
