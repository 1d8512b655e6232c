import {
  ActivityIcon,
  BarChart3Icon,
  BookOpenIcon,
  BotIcon,
  Building2Icon,
  DatabaseBackupIcon,
  FileCode2Icon,
  KeyRoundIcon,
  KeySquareIcon,
  LayoutDashboardIcon,
  NetworkIcon,
  PlugIcon,
  PuzzleIcon,
  ScrollTextIcon,
  ServerIcon,
  SettingsIcon,
  Share2Icon,
  ShieldCheckIcon,
  UsersIcon,
  WaypointsIcon,
  WrenchIcon,
  type LucideIcon,
} from "lucide-react";
import type { Role } from "@/api/client";
import { ADMIN_VIEWER, ALL_ROLES, isRoleAllowed, OPERATORS } from "@/app/roles";

export interface NavItem {
  title: string;
  href: string;
  icon: LucideIcon;
  /** Roles that see the item; omitted means everyone (spec §6). */
  roles?: readonly Role[];
}

export interface NavGroup {
  label: string;
  items: NavItem[];
}

/** Sidebar groups and items (spec §2) with their role rules (spec §6). */
export const NAV_GROUPS: readonly NavGroup[] = [
  {
    label: "Platform",
    items: [
      { title: "Dashboard", href: "/dashboard", icon: LayoutDashboardIcon },
      { title: "Nodes", href: "/nodes", icon: ServerIcon },
      { title: "Networks", href: "/networks", icon: NetworkIcon },
      { title: "Smart Contracts", href: "/smart-contracts", icon: FileCode2Icon },
      { title: "Analytics", href: "/platform/analytics", icon: BarChart3Icon },
      { title: "Plugins", href: "/plugins", icon: PuzzleIcon, roles: OPERATORS },
      { title: "Monitoring", href: "/monitoring", icon: ActivityIcon },
      { title: "Troubleshooting", href: "/platform/troubleshooting", icon: WrenchIcon },
    ],
  },
  { label: "Fabric", items: [{ title: "Organizations", href: "/fabric/organizations", icon: Building2Icon }] },
  {
    label: "Settings",
    items: [
      { title: "Key Providers", href: "/settings/providers", icon: ShieldCheckIcon, roles: OPERATORS },
      { title: "Key management", href: "/settings/keys", icon: KeyRoundIcon },
      { title: "Users", href: "/users", icon: UsersIcon, roles: ADMIN_VIEWER },
      { title: "API Keys", href: "/settings/api-keys", icon: KeySquareIcon, roles: ALL_ROLES },
      { title: "MCP Integration", href: "/settings/mcp", icon: BotIcon, roles: ALL_ROLES },
      { title: "Backups", href: "/settings/backups", icon: DatabaseBackupIcon, roles: ALL_ROLES },
      { title: "Settings", href: "/settings/general", icon: SettingsIcon, roles: ALL_ROLES },
      { title: "Audit Logs", href: "/settings/audit-logs", icon: ScrollTextIcon, roles: ADMIN_VIEWER },
    ],
  },
  { label: "API", items: [{ title: "API Documentation", href: "/docs", icon: BookOpenIcon, roles: ALL_ROLES }] },
  {
    label: "Connect",
    items: [
      { title: "Connect", href: "/connect", icon: PlugIcon, roles: ALL_ROLES },
      { title: "External Nodes", href: "/external-nodes", icon: WaypointsIcon, roles: ALL_ROLES },
      { title: "Shared Networks", href: "/networks/fabric/shared", icon: Share2Icon, roles: ALL_ROLES },
    ],
  },
];

/** The sidebar a role sees: items filtered by the role table, empty groups dropped. */
export function navForRole(role: string | null | undefined, groups: readonly NavGroup[] = NAV_GROUPS): NavGroup[] {
  return groups
    .map((g) => ({
      ...g,
      items: g.items.filter((i) => isRoleAllowed(role, i.roles ? { allowed: i.roles } : {})),
    }))
    .filter((g) => g.items.length > 0);
}

/** The nav item that owns a path: the longest href that is the path or a parent of it. */
export function activeNavHref(pathname: string, groups: readonly NavGroup[] = NAV_GROUPS): string | undefined {
  let best: string | undefined;
  for (const g of groups) {
    for (const i of g.items) {
      if (pathname === i.href || pathname.startsWith(`${i.href}/`)) {
        if (!best || i.href.length > best.length) best = i.href;
      }
    }
  }
  return best;
}
