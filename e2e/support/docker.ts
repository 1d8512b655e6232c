import Docker from "dockerode";
import { inject } from "vitest";
import { LABEL } from "../../server/src/runtime/docker/index.js";
import { apiCall } from "./api.js";
import { adminUser } from "./browser.js";

/** The run's dockerd as a spec sees it: the address the console is given, and a client of its own. */
export interface SpecEngine {
  host: string;
  docker: Docker;
}

/**
 * The dockerd the e2e global setup started for the shared server, or undefined after printing why the
 * spec named `what` skips (no engine on this machine, not root, ...). Call it at the spec's top level.
 */
export function specEngine(what: string): SpecEngine | undefined {
  const host = inject("dockerHost") || undefined;
  if (!host) {
    console.warn(`${what}: skipped: ${inject("dockerSkipReason")}`);
    return undefined;
  }
  return { host, docker: new Docker({ socketPath: host.replace(/^unix:\/\//, "") }) };
}

/** The console's containers whose id label is `id` (a node's name, `cc-<definition id>`), stopped ones included. */
export function consoleContainers(docker: Docker, id: string): Promise<Docker.ContainerInfo[]> {
  return docker.listContainers({
    all: true,
    filters: JSON.stringify({ label: [`${LABEL.managed}=true`, `${LABEL.id}=${id}`] }),
  });
}

/** Deletes every node of an organization through the API; the console removes their containers with them. */
export async function deleteNodesOf(baseUrl: string, organizationId: number): Promise<void> {
  const left = await apiCall<{ items?: { id: number }[] }>(
    baseUrl,
    adminUser(),
    "GET",
    `/nodes?limit=1000&organizationId=${organizationId}`,
  );
  for (const n of left.data.items ?? []) await apiCall(baseUrl, adminUser(), "DELETE", `/nodes/${n.id}`);
}
