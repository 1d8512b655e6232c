import type Docker from "dockerode";
import { RuntimeError } from "../errors.js";
import type { Supervisor, SupervisorOptions } from "../supervisor.types.js";
import { consoleTagOf, createContainerSupervisor } from "./container-supervisor.js";
import { dockerClient, pingEngine, type DockerEndpoint } from "./engine.js";

export { consoleTagOf, containerName, createContainerSupervisor, LABEL } from "./container-supervisor.js";
export { defaultDockerEndpoint, dockerClient, pingEngine, type DockerEndpoint } from "./engine.js";
export { buildImage, ensureFabricImage, ensureImage, ensureProgramImage } from "./images.js";
export { createRuntimeSupervisor } from "./runtime-supervisor.js";

/** The console's Docker engine, as the modules that run containers see it. */
export interface DockerRuntime {
  /** The engine, or undefined when this console has none configured. */
  endpoint: DockerEndpoint | undefined;
  /** The Engine API client; throws DOCKER_UNAVAILABLE when there is no engine. */
  client(): Docker;
  /** Resolves when the engine answers; throws DOCKER_UNAVAILABLE with what is missing. */
  ready(): Promise<void>;
  /** A container supervisor with its own state folder (logs), sharing the console's tag. */
  supervisor(opts: SupervisorOptions): Supervisor;
  /** The tag that names this console's containers (`chainlaunch-<tag>-<id>`). */
  consoleTag: string;
}

export function createDockerRuntime(p: { host: string | undefined; dataDir: string }): DockerRuntime {
  const endpoint = p.host ? { name: "local", host: p.host } : undefined;
  let docker: Docker | undefined;
  const consoleTag = consoleTagOf(p.dataDir);
  const client = (): Docker => {
    if (!endpoint) {
      throw new RuntimeError(
        "DOCKER_UNAVAILABLE",
        "no Docker engine is configured: set CHAINLAUNCH_DOCKER_HOST (or DOCKER_HOST), or start dockerd on /var/run/docker.sock",
      );
    }
    return (docker ??= dockerClient(endpoint));
  };
  return {
    endpoint,
    client,
    consoleTag,
    async ready() {
      await pingEngine(client(), endpoint as DockerEndpoint);
    },
    supervisor(opts) {
      return createContainerSupervisor({ ...opts, docker: client(), endpoint: endpoint as DockerEndpoint, consoleTag });
    },
  };
}
