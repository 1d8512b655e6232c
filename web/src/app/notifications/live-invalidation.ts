import type { QueryClient, QueryKey } from "@tanstack/react-query";
import { backupKeys } from "@/data/backups/backups";
import { chaincodeProposalKeys } from "@/data/chaincode-proposals/keys";
import { chaincodeKeys } from "@/data/chaincodes/keys";
import { fabricNetworkKeys } from "@/data/fabric-networks/keys";
import { governanceKeys } from "@/data/governance/keys";
import { nodeKeys } from "@/data/nodes/keys";
import { pluginKeys } from "@/data/plugins/keys";
import { projectKeys } from "@/data/projects/project-data";
import { settingsKeys } from "@/data/settings/keys";
import { sharingKeys } from "@/data/sharing/keys";

/**
 * Which cached data a server event makes stale, by the event type's first word. Every bus event reaches
 * every open socket (`{type:"event"}`), so a screen that shows a node's, chaincode's, plugin's or
 * backup's state refetches it as soon as something changed it: another operator's stop, a crash and
 * its restart, a build finishing. Without this, only queries that poll would move.
 */
const STALE_BY_PREFIX: Record<string, readonly QueryKey[]> = {
  node: [nodeKeys.all, fabricNetworkKeys.all],
  chaincode: [chaincodeKeys.all, chaincodeProposalKeys.all],
  plugin: [pluginKeys.all],
  backup: [backupKeys.all],
  settings: [settingsKeys.all],
  network: [sharingKeys.all, fabricNetworkKeys.all],
  proposal: [governanceKeys.all],
  // A chaincode project's state (not its files: an open editor keeps its buffer).
  project: [projectKeys.list(), [...projectKeys.all, "detail"]],
  signature: [governanceKeys.all],
};

/** The query keys an event of `type` makes stale (none for types no screen shows, e.g. progress ticks). */
export function staleKeysFor(type: string): readonly QueryKey[] {
  if (type.endsWith(".progress")) return [];
  return STALE_BY_PREFIX[type.split(".")[0] ?? ""] ?? [];
}

/** Marks what `type` changed stale; queries on screen refetch at once, the others when next shown. */
export function invalidateForEvent(qc: QueryClient, type: string): void {
  for (const queryKey of staleKeysFor(type)) void qc.invalidateQueries({ queryKey });
}
