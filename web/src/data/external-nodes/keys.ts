import type { ExternalKind } from "@/data/external-nodes/types";

/** Query keys of the external nodes (records synced from connected consoles). */
export const externalNodeKeys = {
  all: ["external-nodes"] as const,
  list: (kind: ExternalKind) => [...externalNodeKeys.all, kind] as const,
};
