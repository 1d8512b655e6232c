import type { ReactElement } from "react";
import { NavLink } from "react-router";
import { cn } from "@/lib/utils";

const TABS = [
  { href: "/settings/general", label: "General" },
  { href: "/settings/network", label: "Network" },
  { href: "/settings/access", label: "Access" },
  { href: "/settings/mcp", label: "MCP" },
  { href: "/settings/docker-engines", label: "Docker engines" },
] as const;

/** Tabs linking the settings screens that share the sidebar's "Settings" item. */
export function SettingsNav(): ReactElement {
  return (
    // Scrolls sideways on a phone instead of widening the page.
    <nav aria-label="Settings sections" className="mb-6 flex gap-1 overflow-x-auto overflow-y-hidden border-b">
      {TABS.map((t) => (
        <NavLink
          key={t.href}
          to={t.href}
          className={({ isActive }) =>
            cn(
              "-mb-px shrink-0 whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium transition-colors",
              isActive
                ? "border-primary text-foreground"
                : "border-transparent text-muted-foreground hover:text-foreground",
            )
          }
        >
          {t.label}
        </NavLink>
      ))}
    </nav>
  );
}
