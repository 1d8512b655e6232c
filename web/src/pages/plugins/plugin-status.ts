import type { DeploymentState, Plugin } from "@/data/plugins/types";

const LABELS: Record<DeploymentState, string> = {
  "not-deployed": "Not deployed",
  deploying: "Deploying",
  running: "Running",
  stopping: "Stopping",
  stopped: "Stopped",
  error: "Error",
};

/** A deployment status for people ("not-deployed" → "Not deployed"); unknown ones as they come. */
export function pluginStatusLabel(status: string | undefined): string {
  if (!status) return LABELS["not-deployed"];
  return LABELS[status as DeploymentState] ?? status;
}

/** How a plugin runs: supervised processes, or Docker Compose (needs a Docker engine). */
export function pluginRuntime(p: Pick<Plugin, "spec">): "process" | "compose" {
  return p.spec.dockerCompose ? "compose" : "process";
}

export interface PluginActions {
  deploy: boolean;
  stop: boolean;
  resume: boolean;
}

/**
 * Which actions make sense in a status: deploy when nothing runs, stop while running (or after an
 * error, to clean up), resume when there are values to deploy again with.
 */
export function pluginActions(status: string | undefined, hasParameters: boolean): PluginActions {
  const s = status ?? "not-deployed";
  return {
    deploy: s === "not-deployed" || s === "stopped" || s === "error",
    stop: s === "running" || s === "error",
    resume: hasParameters && (s === "stopped" || s === "error"),
  };
}
