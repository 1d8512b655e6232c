import type { NodeInfo } from "@/api/client";

// Local types from the federation contract: `besuNode.externalBootnodeIds` (ids of external Besu
// nodes, merged with `bootnodes` by the server) is not in the generated OpenAPI until the server
// side lands; then the field is set directly and these helpers go.

/** A Besu node body with the external nodes to use as boot nodes (their enode URLs, resolved by the server). */
export function withExternalBootnodes<T extends object>(besuNode: T, ids: readonly number[]): T {
  return ids.length ? ({ ...besuNode, externalBootnodeIds: [...ids] } as T) : besuNode;
}

/** The external boot nodes a node was given, when the server reports them. */
export function externalBootnodeIdsOf(node: NodeInfo): number[] {
  const ids = (node.besuNode as { externalBootnodeIds?: unknown } | null | undefined)?.externalBootnodeIds;
  return Array.isArray(ids) ? ids.filter((x): x is number => typeof x === "number") : [];
}
