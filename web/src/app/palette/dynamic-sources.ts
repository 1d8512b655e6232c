import type { PaletteItem } from "@/app/palette/palette-items";

/**
 * A resource the palette lists while it is open (organizations, nodes, Fabric and Besu networks,
 * plugins, chaincodes). Each later feature adds one entry here once its API exists; the palette
 * fetches every source only while open.
 *
 * Example (when GET /organizations lands):
 *   { key: "organizations", group: "Organizations",
 *     fetch: async () => (await unwrap(api.GET("/organizations", { params: { query: { limit: ORGANIZATION_LIST_LIMIT } } })))
 *       .items.map((o) => ({ id: `org:${o.id}`, label: o.mspId, category: "Organizations", keywords: ["organization"], href: `/organizations/${o.id}` })) }
 */
export interface DynamicSource {
  key: string;
  group: "Organizations" | "Nodes" | "Fabric Networks" | "Besu Networks" | "Plugins" | "Chaincodes";
  fetch: () => Promise<PaletteItem[]>;
}

/** No resource API of these kinds exists in the foundation yet. */
export const DYNAMIC_SOURCES: readonly DynamicSource[] = [];
