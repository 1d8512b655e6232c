import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import { pingEngine, runningInContainer, type DockerRuntime } from "../../runtime/docker/index.js";

export const deploymentModesResponse = lazySchema(() =>
  z
    .object({
      modes: z
        .array(
          z.object({
            mode: z.enum(["service", "docker"]).describe("The value of a node's `mode`"),
            available: z.boolean().describe("Whether a node created now may use it"),
            description: z.string().describe("What the mode runs, and why it is unavailable when it is"),
          }),
        )
        .describe("Every mode this console knows, service first"),
      runningInDocker: z.boolean().describe("Whether the console itself seems to run in a container"),
    })
    .describe("The deployment modes of new nodes"),
);
export type DeploymentModes = z.infer<typeof deploymentModesResponse>;

/** How long the availability of Docker may hold up the answer: the engine is asked each time. */
const PING_TIMEOUT_MS = 2000;

/**
 * The deployment modes new nodes may use: "service" (a supervised child process) always, "docker"
 * (a container on the console's local engine) when that engine answers now. Engines an admin
 * registered are not asked: a node names them with `dockerEngine`.
 */
export function createDeploymentModes(deps: { docker?: Pick<DockerRuntime, "endpoint" | "client"> }) {
  async function dockerUnavailable(): Promise<string | undefined> {
    const { docker } = deps;
    if (!docker?.endpoint) {
      return "no Docker engine is configured: set CHAINLAUNCH_DOCKER_HOST (or DOCKER_HOST), or start dockerd on /var/run/docker.sock";
    }
    try {
      await pingEngine(docker.client(), docker.endpoint, PING_TIMEOUT_MS);
      return undefined;
    } catch (err) {
      return (err as Error).message;
    }
  }

  return {
    async list(): Promise<DeploymentModes> {
      const why = await dockerUnavailable();
      return {
        modes: [
          {
            mode: "service",
            available: true,
            description: "A process on the console's host, supervised and restarted by the console",
          },
          {
            mode: "docker",
            available: why === undefined,
            description:
              "A container on the console's Docker engine (Fabric peers and orderers, Besu nodes)" +
              (why ? `; unavailable: ${why}` : ""),
          },
        ],
        runningInDocker: runningInContainer(),
      };
    },
  };
}

export type DeploymentModesService = ReturnType<typeof createDeploymentModes>;
