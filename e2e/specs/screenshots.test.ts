import { afterAll, beforeAll, describe, inject, it } from "vitest";
import { apiCall } from "../support/api.js";
import { adminUser, DESKTOP, MOBILE, openAs, openSession, screenshot, type Session } from "../support/browser.js";
import { seedCatalog, type Catalog } from "../support/seed.js";

let seededPeer = 0;

/** One running peer of Org1MSP for the node screens, created once and deleted (stopped) after the file. */
async function seedPeer(baseUrl: string, orgId: number): Promise<number> {
  if (seededPeer) return seededPeer;
  const found = await apiCall<{ items: { id: number; name: string }[] }>(
    baseUrl,
    adminUser(),
    "GET",
    "/nodes?name=peer0-org1",
  );
  const existing = found.data.items.find((n) => n.name === "peer0-org1");
  if (existing) return (seededPeer = existing.id);
  const defaults = await apiCall<Record<string, string>>(baseUrl, adminUser(), "GET", "/nodes/defaults/fabric-peer");
  const r = await apiCall<{ id: number }>(baseUrl, adminUser(), "POST", "/nodes", {
    name: "peer0-org1",
    blockchainPlatform: "FABRIC",
    fabricPeer: {
      organizationId: orgId,
      mspId: "Org1MSP",
      listenAddress: defaults.data.listenAddress,
      externalEndpoint: defaults.data.externalEndpoint,
      operationsListenAddress: defaults.data.operationsListenAddress,
      chaincodeAddress: defaults.data.chaincodeAddress,
      domainNames: ["peer0.org1.example.com"],
    },
  });
  return (seededPeer = r.data.id);
}

afterAll(async () => {
  if (seededPeer) await apiCall(inject("baseUrl"), adminUser(), "DELETE", `/nodes/${seededPeer}`);
});

/**
 * Saves the special states (login, Besu tabs, node logs, notifications, palette, mobile sidebar, API
 * docs) in light and dark, desktop and mobile, to e2e/artifacts/. Every route's plain screen is the
 * tour's (specs/tour.test.ts).
 */
describe.each([
  { theme: "light", viewport: DESKTOP, size: "desktop" },
  { theme: "dark", viewport: DESKTOP, size: "desktop" },
  { theme: "light", viewport: MOBILE, size: "mobile" },
  { theme: "dark", viewport: MOBILE, size: "mobile" },
] as const)("screenshots $theme $size", ({ theme, viewport, size }) => {
  let s: Session;
  let catalog: Catalog;
  beforeAll(async () => {
    s = await openSession({ viewport, colorScheme: theme });
    catalog = await seedCatalog(s.baseUrl, adminUser());
    await apiCall(s.baseUrl, adminUser(), "POST", "/api-keys", {
      name: `ci-${theme}-${size}`,
      description: "CI deployments",
    });
    await apiCall(s.baseUrl, adminUser(), "POST", "/user-notifications/test", {
      event_type: "node.downtime",
      event_data: { node_name: "peer0-org1", node_id: 3, downtime_mins: 12 },
    });
  });
  afterAll(async () => {
    await s.close();
  });

  it("login", async () => {
    await s.page.goto("/");
    await s.page.getByText("Enter your credentials to access your account").waitFor();
    await screenshot(s.page, `login-${theme}-${size}`);
  });

  it("API docs", async () => {
    await openAs(s, adminUser());
    // The tour shows /docs at both widths; this one waits for Swagger UI's content.
    if (size === "desktop") {
      await s.page.goto("/docs");
      await s.page.locator(".swagger-ui .info").waitFor();
      await screenshot(s.page, `docs-${theme}-${size}`);
    }
  });

  it("Besu network tabs and organization identities", async () => {
    await s.page.goto(`/networks/${catalog.besuId}/besu`);
    await s.page.getByRole("tab", { name: "Validators" }).click();
    await s.page.getByTestId("validator-list").getByText("validator-1").waitFor();
    await screenshot(s.page, `besu-validators-${theme}-${size}`);
    await s.page.getByRole("tab", { name: "Genesis" }).click();
    await s.page.getByTestId("genesis-json").waitFor();
    await screenshot(s.page, `besu-genesis-${theme}-${size}`);
    await s.page.goto(`/organizations/${catalog.orgId}`);
    await s.page.getByTestId("revoked-list").scrollIntoViewIfNeeded();
    await screenshot(s.page, `organization-identities-${theme}-${size}`);
  });

  it("node logs", async () => {
    const nodeId = await seedPeer(s.baseUrl, catalog.orgId);
    await s.page.goto(`/nodes/${nodeId}`);
    await s.page.getByRole("heading", { name: "peer0-org1" }).waitFor();
    await s.page.getByRole("tab", { name: "Logs" }).click();
    await s.page
      .getByRole("log", { name: "Node log" })
      .getByText(/Started peer/)
      .first()
      .waitFor({ timeout: 60_000 });
    await screenshot(s.page, `node-logs-${theme}-${size}`);
  });

  it("notifications, palette and sidebar", async () => {
    await s.page.goto("/dashboard");
    await s.page.getByRole("heading", { name: /Welcome back/ }).waitFor();
    await s.page.getByRole("button", { name: /^Notifications/ }).click();
    await s.page.getByTestId("notification-list").waitFor();
    await screenshot(s.page, `notifications-${theme}-${size}`);
    await s.page.keyboard.press("Escape");
    await s.page.keyboard.press("Control+k");
    await s.page.getByPlaceholder("Type a command or search...").fill("set");
    await screenshot(s.page, `palette-${theme}-${size}`);
    await s.page.keyboard.press("Escape");
    if (size === "mobile") {
      await s.page.getByRole("button", { name: "Toggle Sidebar" }).click();
      await s.page.getByTestId("sidebar-mobile").waitFor();
      await screenshot(s.page, `sidebar-${theme}-${size}`);
    }
  });
});
