import type { Role } from "@/api/client";
import { ADMIN_VIEWER, OPERATORS } from "@/app/roles";

export interface PaletteItem {
  id: string;
  label: string;
  /** Group heading; also searched with weight 0.5. */
  category: string;
  keywords: string[];
  href: string;
  roles?: readonly Role[];
  /** Dynamic entries may carry a status shown as a coloured dot. */
  status?: string;
  /** A short line shown after the label (a plugin's description). */
  description?: string;
}

/** The nine static groups of spec §2, in order. */
export const STATIC_GROUPS = [
  "Main Pages",
  "Wizards & Setup",
  "Create",
  "Bulk Operations",
  "Networks & Connections",
  "Smart Contracts",
  "Logs & Monitoring",
  "Settings",
  "Platform & Tools",
] as const;

type G = (typeof STATIC_GROUPS)[number];
const item = (category: G, label: string, href: string, keywords: string[], roles?: readonly Role[]): PaletteItem => ({
  id: `static:${href}`,
  label,
  category,
  keywords,
  href,
  ...(roles ? { roles } : {}),
});

export const STATIC_ITEMS: readonly PaletteItem[] = [
  item("Main Pages", "Dashboard", "/dashboard", ["home", "overview", "summary"]),
  item("Main Pages", "Nodes", "/nodes", ["peers", "orderers", "validators"]),
  item("Main Pages", "Networks", "/networks", ["channels", "chains"]),
  item("Main Pages", "Organizations", "/fabric/organizations", ["msp", "orgs", "fabric"]),
  item("Main Pages", "Account", "/account", ["profile", "password", "me"]),
  item("Wizards & Setup", "Fabric Network Wizard", "/fabric-wizard", ["setup", "guided", "create network"], OPERATORS),
  item("Wizards & Setup", "Join Fabric Network", "/fabric-join", ["join", "channel", "existing"], OPERATORS),
  item("Wizards & Setup", "Import Network", "/networks/import", ["import", "existing"], OPERATORS),
  item("Create", "Create Node", "/nodes/create", ["new node", "add"], OPERATORS),
  item("Create", "Create Fabric Node", "/nodes/fabric/create", ["peer", "orderer", "new"], OPERATORS),
  item("Create", "Create Besu Node", "/nodes/besu/create", ["validator", "ethereum", "new"], OPERATORS),
  item("Create", "Create Fabric Network", "/networks/fabric/create", ["channel", "new"], OPERATORS),
  item("Create", "Create Besu Network", "/networks/besu/create", ["qbft", "chain", "new"], OPERATORS),
  item("Create", "Create API Key", "/settings/api-keys/new", ["token", "new key"], OPERATORS),
  item("Create", "Add Key Provider", "/settings/providers/add", ["vault", "kms", "hsm"], OPERATORS),
  item("Create", "New Plugin", "/plugins/new", ["extension"], OPERATORS),
  item("Create", "Create Backup Target", "/settings/backups/targets/create", ["s3", "restic"], ["admin"]),
  item("Bulk Operations", "Bulk Create Fabric Nodes", "/nodes/fabric/bulk", ["many", "batch", "peers"], OPERATORS),
  item("Bulk Operations", "Bulk Create Besu Network", "/networks/besu/bulk-create", ["many", "batch"], OPERATORS),
  item("Networks & Connections", "Fabric Networks", "/network/fabric", ["channels", "hyperledger"]),
  item("Networks & Connections", "Besu Networks", "/network/besu", ["ethereum", "qbft"]),
  item("Networks & Connections", "Shared Networks", "/networks/fabric/shared", ["invitations", "shared"]),
  item("Networks & Connections", "Connect", "/connect", ["peering", "invite", "federation"]),
  item("Networks & Connections", "External Nodes", "/external-nodes", ["remote", "peers"]),
  item("Smart Contracts", "Smart Contracts", "/smart-contracts", ["chaincode", "contracts"]),
  item("Smart Contracts", "Fabric Chaincodes", "/smart-contracts/fabric", ["chaincode", "lifecycle"]),
  item("Smart Contracts", "Besu Contracts", "/smart-contracts/besu", ["solidity", "evm"]),
  item("Logs & Monitoring", "Node Logs", "/nodes/logs", ["logs", "output"]),
  item("Logs & Monitoring", "Monitoring", "/monitoring", ["prometheus", "metrics", "alerts"]),
  item("Logs & Monitoring", "Audit Logs", "/settings/audit-logs", ["audit", "events", "history"], ADMIN_VIEWER),
  item("Logs & Monitoring", "Analytics", "/platform/analytics", ["charts", "usage"]),
  item("Settings", "General Settings", "/settings/general", ["configuration", "templates", "health"]),
  item("Settings", "Network Settings", "/settings/network", ["ip", "ports", "host", "expose"]),
  item("Settings", "Access Control", "/settings/access", ["roles", "permissions", "password"]),
  item("Settings", "Docker Engines", "/settings/docker-engines", ["docker", "containers", "hosts", "remote"]),
  item("Settings", "Users", "/users", ["accounts", "people", "roles"], ADMIN_VIEWER),
  item("Settings", "API Keys", "/settings/api-keys", ["tokens", "credentials"]),
  item("Settings", "Key Management", "/settings/keys", ["keys", "certificates", "crypto"]),
  item("Settings", "Key Providers", "/settings/providers", ["vault", "kms", "hsm"], OPERATORS),
  item("Settings", "Backups", "/settings/backups", ["restore", "snapshots", "schedules"]),
  item("Settings", "MCP Integration", "/settings/mcp", ["ai", "model context protocol", "assistant"]),
  item("Platform & Tools", "API Documentation", "/docs", ["swagger", "openapi", "reference"]),
  item("Platform & Tools", "Plugins", "/plugins", ["extensions", "marketplace"], OPERATORS),
  item("Platform & Tools", "Troubleshooting", "/platform/troubleshooting", ["diagnostics", "debug", "connectivity"]),
];

/** Dot colour for a status (spec §2): running/active green, stopped/inactive grey, error/failed red, else yellow. */
export function statusDotClass(status: string | null | undefined): string {
  const s = (status ?? "").toLowerCase();
  if (s === "running" || s === "active") return "bg-green-500";
  if (s === "stopped" || s === "inactive") return "bg-gray-400";
  if (s === "error" || s === "failed") return "bg-red-500";
  return "bg-yellow-500";
}
