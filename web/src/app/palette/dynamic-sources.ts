import { api, unwrap, type Role } from "@/api/client";
import { ORGANIZATION_LIST_LIMIT } from "@/app/constants";
import type { PaletteItem } from "@/app/palette/palette-items";
import { OPERATORS } from "@/app/roles";
import type { Plugin } from "@/data/plugins/types";

/**
 * A resource the palette lists while it is open (organizations, nodes, Fabric and Besu networks,
 * plugins, chaincodes). The palette fetches every source only while open, and only for the roles
 * the source allows.
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
  /** Roles that may list it (the API answers others 403); every role when absent. */
  roles?: readonly Role[];
}

/** Palette entries of the installed plugins: name, description and deployment status (spec §2, §3). */
export function pluginPaletteItems(plugins: readonly Plugin[]): PaletteItem[] {
  return plugins.map((p) => ({
    id: `plugin:${p.metadata.name}`,
    label: p.metadata.name,
    category: "Plugins",
    keywords: ["plugin", "extension", ...(p.metadata.tags ?? [])],
    href: `/plugins/${encodeURIComponent(p.metadata.name)}`,
    status: p.deploymentStatus?.status ?? "not-deployed",
    ...(p.metadata.description ? { description: p.metadata.description } : {}),
    roles: OPERATORS,
  }));
}

/** Every resource the palette lists, each fetched only while it is open. */
export const DYNAMIC_SOURCES: readonly DynamicSource[] = [
  {
    key: "organizations",
    group: "Organizations",
    fetch: async () => {
      const res = await unwrap(api.GET("/organizations", { params: { query: { limit: ORGANIZATION_LIST_LIMIT } } }));
      return res.items.map((o) => ({
        id: `org:${o.id}`,
        label: o.mspId,
        category: "Organizations",
        keywords: ["organization", "msp", "fabric"],
        href: `/organizations/${o.id}`,
      }));
    },
  },
  {
    key: "nodes",
    group: "Nodes",
    fetch: async () => {
      const res = await unwrap(api.GET("/nodes", { params: { query: { page: 1, limit: 1000 } } }));
      return res.items.map((n) => ({
        id: `node:${n.id}`,
        label: n.name,
        category: "Nodes",
        keywords: ["node", n.platform.toLowerCase(), n.nodeType.toLowerCase().replace(/_/g, " ")],
        href: `/nodes/${n.id}`,
        status: n.status,
      }));
    },
  },
  {
    key: "fabric-networks",
    group: "Fabric Networks",
    fetch: async () => {
      const res = await unwrap(api.GET("/networks/fabric", { params: { query: { limit: 1000 } } }));
      return res.networks.map((n) => ({
        id: `fabric:${n.id}`,
        label: n.name,
        category: "Fabric Networks",
        keywords: ["fabric", "network", "channel"],
        href: `/networks/${n.id}/fabric`,
      }));
    },
  },
  {
    key: "besu-networks",
    group: "Besu Networks",
    fetch: async () => {
      const res = await unwrap(api.GET("/networks/besu", { params: { query: { limit: 1000 } } }));
      return res.networks.map((n) => ({
        id: `besu:${n.id}`,
        label: n.name,
        category: "Besu Networks",
        keywords: ["besu", "network", "qbft"],
        href: `/networks/${n.id}/besu`,
      }));
    },
  },
  {
    key: "plugins",
    group: "Plugins",
    roles: OPERATORS,
    fetch: async () => pluginPaletteItems(await unwrap(api.GET("/plugins"))),
  },
  {
    key: "chaincodes",
    group: "Chaincodes",
    fetch: async () => {
      const res = await unwrap(api.GET("/sc/fabric/chaincodes"));
      return res.chaincodes.map((c) => ({
        id: `chaincode:${c.id}`,
        label: c.name,
        category: "Chaincodes",
        keywords: ["chaincode", "fabric", "smart contract", c.network_name],
        href: `/sc/fabric/chaincodes/${c.id}`,
      }));
    },
  },
];
