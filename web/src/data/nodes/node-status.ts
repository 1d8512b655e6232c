import type { NodeStatus } from "@/api/client";
import { statusDotClass } from "@/app/palette/palette-items";

/** How often lists and details poll while a node is changing state. */
export const NODE_POLL_MS = 3000;

const TRANSIENT: ReadonlySet<string> = new Set(["STARTING", "STOPPING", "PENDING"]);

/** A status the supervisor will move on from by itself (so the screen should keep polling). */
export function isTransientStatus(status: string | null | undefined): boolean {
  return TRANSIENT.has((status ?? "").toUpperCase());
}

export function hasTransientNode(nodes: readonly { status: string }[]): boolean {
  return nodes.some((n) => isTransientStatus(n.status));
}

/** The dot colour of a node status (spec §2: running green, stopped grey, error red, else yellow). */
export function nodeStatusDot(status: string | null | undefined): string {
  return statusDotClass(status);
}

/** "RUNNING" → "Running". */
export function statusLabel(status: string): string {
  return status.charAt(0).toUpperCase() + status.slice(1).toLowerCase();
}

/** Which of start/stop/restart make sense for a status. */
export function allowedActions(status: NodeStatus): { start: boolean; stop: boolean; restart: boolean } {
  return {
    start: status === "STOPPED" || status === "ERROR" || status === "PENDING",
    stop: status === "RUNNING" || status === "STARTING" || status === "ERROR",
    restart: status === "RUNNING" || status === "ERROR",
  };
}

export const NODE_TYPE_LABELS: Record<string, string> = {
  FABRIC_PEER: "Fabric peer",
  FABRIC_ORDERER: "Fabric orderer",
  BESU_FULLNODE: "Besu node",
};

/**
 * What saving a node's configuration does, for the toast: the server regenerates its files and
 * restarts it when it is running (or starting); a stopped node takes the change at its next start.
 */
export function updateOutcomeText(name: string, statusBefore: string | null | undefined): string {
  const s = (statusBefore ?? "").toUpperCase();
  if (s === "RUNNING" || s === "STARTING" || s === "ERROR")
    return `${name} is restarting to apply the new configuration.`;
  return `${name} is not running; the new configuration applies when it next starts.`;
}
