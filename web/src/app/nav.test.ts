import { describe, expect, it } from "vitest";
import { CircleIcon } from "lucide-react";
import { activeNavHref, navForRole } from "@/app/nav";
import { isRoleAllowed } from "@/app/roles";

const titles = (role: string | undefined): string[] => navForRole(role).flatMap((g) => g.items.map((i) => i.title));

describe("sidebar role filtering (spec §6)", () => {
  it("shows admin everything", () => {
    expect(titles("admin")).toEqual([
      "Dashboard",
      "Nodes",
      "Networks",
      "Smart Contracts",
      "Analytics",
      "Plugins",
      "Monitoring",
      "Troubleshooting",
      "Organizations",
      "Key Providers",
      "Key management",
      "Users",
      "API Keys",
      "MCP Integration",
      "Backups",
      "Settings",
      "Audit Logs",
      "API Documentation",
      "Connect",
      "External Nodes",
      "Shared Networks",
    ]);
  });
  it("hides Users and Audit Logs from manager", () => {
    const t = titles("manager");
    expect(t).toContain("Plugins");
    expect(t).toContain("Key Providers");
    expect(t).not.toContain("Users");
    expect(t).not.toContain("Audit Logs");
  });
  it("hides Plugins and Key Providers from viewer", () => {
    const t = titles("VIEWER");
    expect(t).not.toContain("Plugins");
    expect(t).not.toContain("Key Providers");
    expect(t).toContain("Users");
    expect(t).toContain("Audit Logs");
  });
  it("drops empty groups", () => {
    const groups = navForRole("viewer", [
      { label: "A", items: [{ title: "x", href: "/x", icon: CircleIcon, roles: ["admin"] }] },
      { label: "B", items: [{ title: "y", href: "/y", icon: CircleIcon }] },
    ]);
    expect(groups.map((g) => g.label)).toEqual(["B"]);
  });
  it("shows nothing without a role", () => {
    expect(navForRole(undefined)).toEqual([]);
  });
  it("marks the deepest matching item active", () => {
    expect(activeNavHref("/settings/api-keys/4")).toBe("/settings/api-keys");
    expect(activeNavHref("/networks/fabric/shared")).toBe("/networks/fabric/shared");
    expect(activeNavHref("/networks/3/fabric")).toBe("/networks");
  });
});

describe("role gate rule", () => {
  it("needs a role, honours denied, then allowed", () => {
    expect(isRoleAllowed(undefined, {})).toBe(false);
    expect(isRoleAllowed("viewer", { denied: ["viewer"] })).toBe(false);
    expect(isRoleAllowed("Manager", { denied: ["viewer"] })).toBe(true);
    expect(isRoleAllowed("manager", { allowed: ["admin"] })).toBe(false);
    expect(isRoleAllowed("ADMIN", { allowed: ["admin"] })).toBe(true);
    expect(isRoleAllowed("admin", { allowed: ["admin"], denied: ["admin"] })).toBe(false);
  });
});
