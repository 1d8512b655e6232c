import { describe, expect, it } from "vitest";
import { DYNAMIC_SOURCES, pluginPaletteItems } from "@/app/palette/dynamic-sources";
import { STATIC_GROUPS, STATIC_ITEMS, statusDotClass } from "@/app/palette/palette-items";
import { FUSE_OPTIONS, groupByCategory, searchPalette } from "@/app/palette/palette-search";

describe("command palette", () => {
  it("has the nine static groups, each with items", () => {
    expect(STATIC_GROUPS).toHaveLength(9);
    expect(groupByCategory(STATIC_ITEMS).map(([g]) => g)).toEqual([...STATIC_GROUPS]);
  });
  it("uses the spec's fuzzy weights and threshold", () => {
    expect(FUSE_OPTIONS.keys).toEqual([
      { name: "label", weight: 2 },
      { name: "keywords", weight: 1 },
      { name: "category", weight: 0.5 },
    ]);
    expect(FUSE_OPTIONS.threshold).toBe(0.3);
  });
  it("finds pages by label and by keyword", () => {
    expect(searchPalette(STATIC_ITEMS, "audit")[0]?.href).toBe("/settings/audit-logs");
    expect(searchPalette(STATIC_ITEMS, "swagger")[0]?.href).toBe("/docs");
    expect(searchPalette(STATIC_ITEMS, "zzzzqqq")).toEqual([]);
    expect(searchPalette(STATIC_ITEMS, "  ")).toHaveLength(STATIC_ITEMS.length);
  });
  it("colours status dots per spec", () => {
    expect(statusDotClass("RUNNING")).toBe("bg-green-500");
    expect(statusDotClass("active")).toBe("bg-green-500");
    expect(statusDotClass("stopped")).toBe("bg-gray-400");
    expect(statusDotClass("inactive")).toBe("bg-gray-400");
    expect(statusDotClass("error")).toBe("bg-red-500");
    expect(statusDotClass("failed")).toBe("bg-red-500");
    expect(statusDotClass("starting")).toBe("bg-yellow-500");
    expect(statusDotClass(undefined)).toBe("bg-yellow-500");
  });
});

describe("command palette dynamic sources", () => {
  it("lists the spec's six resources, plugins for admins and managers only", () => {
    expect(DYNAMIC_SOURCES.map((s) => s.group)).toEqual([
      "Organizations",
      "Nodes",
      "Fabric Networks",
      "Besu Networks",
      "Plugins",
      "Chaincodes",
    ]);
    expect(DYNAMIC_SOURCES.find((s) => s.key === "plugins")?.roles).toEqual(["admin", "manager"]);
  });

  it("shows a plugin's name, description and deployment status, linking to its page", () => {
    const items = pluginPaletteItems([
      {
        apiVersion: "dev.chainlaunch/v1",
        kind: "Plugin",
        metadata: { name: "fabric-rest-gateway", description: "REST for a channel", tags: ["fabric"] },
        spec: { parameters: {} },
        deploymentStatus: { status: "running", projectName: "fabric-rest-gateway", services: [] },
      },
      {
        apiVersion: "dev.chainlaunch/v1",
        kind: "Plugin",
        metadata: { name: "idle" },
        spec: { parameters: {} },
        deploymentStatus: { status: "not-deployed", projectName: "idle", services: [] },
      },
    ]);
    expect(items).toEqual([
      {
        id: "plugin:fabric-rest-gateway",
        label: "fabric-rest-gateway",
        description: "REST for a channel",
        category: "Plugins",
        keywords: ["plugin", "extension", "fabric"],
        href: "/plugins/fabric-rest-gateway",
        status: "running",
        roles: ["admin", "manager"],
      },
      {
        id: "plugin:idle",
        label: "idle",
        category: "Plugins",
        keywords: ["plugin", "extension"],
        href: "/plugins/idle",
        status: "not-deployed",
        roles: ["admin", "manager"],
      },
    ]);
    expect(statusDotClass(items[0]!.status)).toBe("bg-green-500");
    expect(statusDotClass(items[1]!.status)).toBe("bg-yellow-500");
    expect(searchPalette(items, "gateway")[0]?.href).toBe("/plugins/fabric-rest-gateway");
  });
});
