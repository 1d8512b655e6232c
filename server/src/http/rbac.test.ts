import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp } from "../test-support/test-app.js";
import { isAllowed } from "./auth-hooks.js";
import { PERMISSIONS, ROLES, type Role } from "./permissions.js";
import { UPSTREAM_SIGNED_PATHS } from "../modules/federation/upstream.inbound.js";

/**
 * Walks every registered API route and calls it as anonymous, viewer, manager and admin,
 * checking the outcome against the permission table. A route added without a rule fails at
 * registration; a route whose guard disagrees with the table fails here.
 */
describe("RBAC matrix over every registered route", () => {
  let t: TestApp;
  const callers: Record<"anonymous" | Role, Record<string, string>> = {
    anonymous: {},
    admin: {},
    manager: {},
    viewer: {},
  };

  beforeAll(async () => {
    t = await createTestApp("sqlite");
    callers.admin = t.admin;
    callers.manager = await createUser(t, "rbac-manager", "manager");
    callers.viewer = await createUser(t, "rbac-viewer", "viewer");
  });
  afterAll(async () => t.close());

  it("registers routes, each with a known access rule", () => {
    expect(t.routes.length).toBeGreaterThan(20);
    for (const r of t.routes) {
      expect(["public", "self", ...Object.keys(PERMISSIONS)], `${r.method} ${r.url}`).toContain(r.access);
    }
  });

  it("audits every mutation", () => {
    const unaudited = t.routes.filter((r) => !["GET", "HEAD", "OPTIONS"].includes(r.method) && !r.audit);
    expect(unaudited.map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });

  it("allows and denies exactly as the table says", async () => {
    const mismatches: string[] = [];
    for (const route of t.routes) {
      const url = route.url.replace(/:[A-Za-z_]+/g, "999999");
      for (const [who, headers] of Object.entries(callers)) {
        const principal =
          who === "anonymous"
            ? null
            : {
                userId: 1,
                username: who,
                role: who as Role,
                ownerRole: who as Role,
                via: "basic" as const,
                demo: false,
              };
        const expected = isAllowed(route.access, principal, route.method);
        const res = await t.app.inject({
          method: route.method as "GET",
          url,
          headers: {
            ...headers,
            ...(route.method === "GET" || route.method === "DELETE" ? {} : { "content-type": "application/json" }),
          },
          ...(route.method === "GET" || route.method === "DELETE" ? {} : { payload: "{}" }),
        });
        // Console-to-console routes need no user ("public") but a signature by a connected console
        // (modules/federation, upstream's signed routes too): an unsigned call is refused with 401 whoever makes it.
        if (route.url.startsWith("/api/v1/federation/") || UPSTREAM_SIGNED_PATHS.has(route.url.slice(7))) {
          if (res.statusCode !== 401)
            mismatches.push(`${who} ${route.method} ${route.url}: unsigned, got ${res.statusCode}`);
          continue;
        }
        // The MCP endpoint takes API keys only (modules/mcp): Basic callers get 403, anonymous 401.
        if (route.url === "/api/v1/mcp") {
          const want = who === "anonymous" ? 401 : 403;
          if (res.statusCode !== want)
            mismatches.push(
              `${who} ${route.method} ${route.url}: API keys only, expected ${want}, got ${res.statusCode}`,
            );
          continue;
        }
        const denied = res.statusCode === 401 || res.statusCode === 403;
        const expectedStatus = who === "anonymous" ? 401 : 403;
        if (expected && denied)
          mismatches.push(`${who} ${route.method} ${route.url}: expected allowed, got ${res.statusCode}`);
        if (!expected && res.statusCode !== expectedStatus) {
          mismatches.push(`${who} ${route.method} ${route.url}: expected ${expectedStatus}, got ${res.statusCode}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  });

  it("matches the spec's read rules for users, audit logs, plugins and key providers", () => {
    const holders = (p: keyof typeof PERMISSIONS) =>
      ROLES.filter((r) => (PERMISSIONS[p].roles as readonly string[]).includes(r));
    expect(holders("USER_READ")).toEqual(["admin", "viewer"]);
    expect(holders("AUDIT_READ")).toEqual(["admin", "viewer"]);
    expect(holders("PLUGIN_READ")).toEqual(["admin", "manager"]);
    expect(holders("PROVIDER_READ")).toEqual(["admin", "manager"]);
    for (const p of ["USER_CREATE", "USER_UPDATE", "USER_DELETE"] as const) expect(holders(p)).toEqual(["admin"]);
  });

  it("never lets a viewer hold a mutating permission", () => {
    const viewerWrites = Object.entries(PERMISSIONS)
      .filter(([code, def]) => !/_READ$/.test(code) && (def.roles as readonly string[]).includes("viewer"))
      .map(([code]) => code);
    expect(viewerWrites).toEqual([]);
  });
});
