import { matchRoutes } from "react-router";
import { describe, expect, it } from "vitest";
import { breadcrumbsFor, findRoute } from "@/app/breadcrumbs";
import { buildRouteObjects } from "@/app/router";
import { PENDING_ROUTES, ROUTES } from "@/app/routes";

/** Spec §2, copied verbatim: every screen of the product. */
const SPEC_ROUTES = `
dashboard; fabric-wizard; fabric-join; account
nodes; nodes/create; nodes/logs; nodes/{id}; nodes/fabric/create; nodes/fabric/edit/{id}; nodes/fabric/bulk; nodes/besu/create; nodes/besu/edit/{id}
smart-contracts; smart-contracts/fabric; smart-contracts/besu; smart-contracts/fabric/{id}/playground; sc/fabric/chaincodes/{id}; sc/fabric/chaincodes/{id}/add-definition; sc/fabric/chaincodes/{id}/definitions/{definitionId}/edit; sc/fabric/projects/chaincodes/{id}; sc/fabric/projects/chaincodes/{id}/editor
monitoring; monitoring/providers/new; monitoring/providers/{id}; settings/monitoring
networks; networks/import; network/fabric; network/besu; networks/fabric/create; networks/besu/create; networks/besu/bulk-create; networks/fabric/shared; networks/{id}/besu; networks/{id}/fabric; networks/{id}/blocks; networks/{id}/blocks/{blockNumber}; networks/besu/{networkId}/{nodeId}/blocks/{blockNumber}
networks/{networkId}/fabric/proposals/{id}; networks/{id}/fabric/proposals/create; networks/fabric/proposals/{proposalId}/sign; networks/{networkId}/fabric/chaincodes/propose; networks/fabric/chaincodes/{id}
organizations/{id}; fabric/organizations
settings/access; settings/network; settings/keys; settings/keys/{id}; settings/api-keys; settings/api-keys/new; settings/api-keys/{id}; settings/mcp; settings/providers; settings/providers/add; settings/providers/create/vault; settings/providers/create/aws-kms; settings/providers/{id}; settings/backups; settings/backups/targets/create; settings/backups/targets/{id}; settings/general; settings/audit-logs; settings/audit-logs/{id}; views/audit-logs/{id}
connect; connect/{id}; external-nodes
docs
plugins; plugins/new; plugins/{name}; plugins/{name}/edit; plugins/{name}/deploy
users; platform/analytics; platform/troubleshooting
`
  .split(/[;\n]/)
  .map((s) => s.trim())
  .filter(Boolean)
  .map((s) => s.replace(/\{(\w+)\}/g, ":$1"));

/** Screens added after spec §2, for server features the spec did not have. */
const ADDED_ROUTES = [
  "settings/docker-engines",
  "templates",
  "templates/new",
  "templates/:id",
  "settings/backups/targets/:id/restore",
];

/** The ratchet: this number only goes down as later issues implement screens. */
const MAX_PENDING = 0;

function sample(path: string): string {
  return `/${path.replace(/:(\w+)/g, "42")}`;
}

function leafPath(url: string): string | undefined {
  const m = matchRoutes(buildRouteObjects(), url);
  return m?.at(-1)?.route.path;
}

describe("route ratchet (spec §2)", () => {
  it("lists exactly the spec's routes and the ones added since", () => {
    expect(SPEC_ROUTES).toHaveLength(78);
    expect(ROUTES.map((r) => r.path).sort()).toEqual([...SPEC_ROUTES, ...ADDED_ROUTES].sort());
  });

  it("renders each route's screen or puts it on the pending list", () => {
    for (const r of ROUTES) expect(Boolean(r.load) !== PENDING_ROUTES.includes(r.path)).toBe(true);
    expect(PENDING_ROUTES.length).toBeLessThanOrEqual(MAX_PENDING);
  });

  it("implements the foundation screens", () => {
    const implemented = ROUTES.filter((r) => r.load).map((r) => r.path);
    for (const p of [
      "dashboard",
      "account",
      "users",
      "settings/api-keys",
      "settings/audit-logs",
      "docs",
      "settings/keys",
      "settings/keys/:id",
      "settings/providers",
      "settings/providers/add",
      "settings/providers/:id",
      "fabric/organizations",
      "organizations/:id",
      "networks",
      "networks/import",
      "network/besu",
      "networks/besu/create",
      "networks/:id/besu",
    ]) {
      expect(implemented).toContain(p);
    }
  });

  it("routes a sample URL of every spec route to that route, not to not-found", () => {
    for (const p of [...SPEC_ROUTES, ...ADDED_ROUTES]) {
      const url = sample(p);
      expect(leafPath(url), url).not.toBe("*");
      expect(findRoute(url), url).toBeDefined();
    }
  });

  it("sends unknown paths to not-found", () => {
    expect(leafPath("/no-such-page")).toBe("*");
    expect(leafPath("/settings/nope/deeper")).toBe("*");
    expect(findRoute("/no-such-page")).toBeUndefined();
  });

  it("redirects / through the index route", () => {
    const m = matchRoutes(buildRouteObjects(), "/");
    expect(m?.at(-1)?.route.index).toBe(true);
  });

  it("implements the Vault and AWS KMS provider forms (issue 18), the last pending screens", () => {
    expect(PENDING_ROUTES).toEqual([]);
  });

  it("prefers static segments over parameters", () => {
    expect(findRoute("/settings/api-keys/new")?.path).toBe("settings/api-keys/new");
    expect(findRoute("/settings/api-keys/3")?.path).toBe("settings/api-keys/:id");
  });
});

describe("breadcrumbs", () => {
  it("links every parent screen", () => {
    expect(breadcrumbsFor("/settings/api-keys/3")).toEqual([
      { label: "Settings", href: "/settings/general" },
      { label: "API Keys", href: "/settings/api-keys" },
      { label: "API Key", href: "/settings/api-keys/3" },
    ]);
    expect(breadcrumbsFor("/nodes/fabric/create").map((c) => c.label)).toEqual(["Nodes", "Create Fabric Node"]);
    expect(breadcrumbsFor("/dashboard")).toEqual([{ label: "Dashboard", href: "/dashboard" }]);
    expect(breadcrumbsFor("/plugins/fabric-rest-gateway/deploy")).toEqual([
      { label: "Plugins", href: "/plugins" },
      { label: "Plugin", href: "/plugins/fabric-rest-gateway" },
      { label: "Deploy Plugin", href: "/plugins/fabric-rest-gateway/deploy" },
    ]);
    expect(breadcrumbsFor("/plugins/new").map((c) => c.label)).toEqual(["Plugins", "New Plugin"]);
    expect(breadcrumbsFor("/settings/docker-engines")).toEqual([
      { label: "Settings", href: "/settings/general" },
      { label: "Docker Engines", href: "/settings/docker-engines" },
    ]);
  });
});
