import { afterAll, beforeAll, describe, inject, it } from "vitest";
import { apiCall } from "../support/api.js";
import { adminUser, DESKTOP, MOBILE, openAs, openSession, screenshot, type Session } from "../support/browser.js";
import { seedCatalog, type Catalog } from "../support/seed.js";

const SCREENS = [
  { name: "dashboard", path: "/dashboard", ready: "Welcome back" },
  { name: "users", path: "/users", ready: "Users" },
  { name: "api-keys", path: "/settings/api-keys", ready: "API Keys" },
  { name: "audit-logs", path: "/settings/audit-logs", ready: "Audit Logs" },
  { name: "settings-general", path: "/settings/general", ready: "Settings" },
  { name: "settings-network", path: "/settings/network", ready: "Settings" },
  { name: "account", path: "/account", ready: "Account" },
  { name: "monitoring", path: "/monitoring", ready: "Monitoring" },
  { name: "analytics", path: "/platform/analytics", ready: "Analytics" },
  { name: "plugins", path: "/plugins", ready: "Plugins" },
  { name: "settings-mcp", path: "/settings/mcp", ready: "Endpoint" },
  { name: "provider-create-vault", path: "/settings/providers/create/vault", ready: "Create Vault Provider" },
  { name: "provider-create-aws-kms", path: "/settings/providers/create/aws-kms", ready: "Create AWS KMS Provider" },
] as const;

/** Screens of keys, providers, organizations and Besu networks, over the seeded catalog. */
function catalogScreens(c: Catalog): { name: string; path: string; ready: string; wait?: string }[] {
  return [
    { name: "keys", path: "/settings/keys", ready: "Key Management" },
    { name: "key-detail", path: `/settings/keys/${c.caKeyId}`, ready: "acme-root-ca", wait: "certificate-details" },
    { name: "providers", path: "/settings/providers", ready: "Key Providers" },
    { name: "provider-add", path: "/settings/providers/add", ready: "Add Key Provider" },
    { name: "provider-detail", path: `/settings/providers/${c.providerId}`, ready: "Database" },
    { name: "organizations", path: "/fabric/organizations", ready: "Organizations" },
    { name: "organization-detail", path: `/organizations/${c.orgId}`, ready: "Org1MSP", wait: "certificate-details" },
    { name: "networks", path: "/networks", ready: "Networks" },
    { name: "besu-networks", path: "/network/besu", ready: "Besu Networks" },
    { name: "besu-create", path: "/networks/besu/create", ready: "Create Besu Network" },
    { name: "besu-detail", path: `/networks/${c.besuId}/besu`, ready: "besu-testnet" },
    { name: "network-import", path: "/networks/import", ready: "Import Network" },
  ];
}

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

/** Saves the main screens in light and dark, desktop and mobile, to e2e/artifacts/. */
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

  it("main screens", async () => {
    await openAs(s, adminUser());
    for (const sc of SCREENS) {
      await s.page.goto(sc.path);
      await s.page.getByRole("heading", { name: sc.ready }).first().waitFor();
      await screenshot(s.page, `${sc.name}-${theme}-${size}`);
    }
    if (size === "desktop") {
      await s.page.goto("/docs");
      await s.page.locator(".swagger-ui .info").waitFor();
      await screenshot(s.page, `docs-${theme}-${size}`);
    }
  });

  it("keys, providers, organizations and Besu networks", async () => {
    for (const sc of catalogScreens(catalog)) {
      await s.page.goto(sc.path);
      await s.page.getByRole("heading", { name: sc.ready }).first().waitFor();
      if (sc.wait) await s.page.getByTestId(sc.wait).first().waitFor();
      await screenshot(s.page, `${sc.name}-${theme}-${size}`);
    }
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

  it("nodes", async () => {
    const nodeId = await seedPeer(s.baseUrl, catalog.orgId);
    await s.page.goto("/nodes");
    await s.page.getByRole("heading", { name: "Nodes", exact: true }).waitFor();
    await s.page.getByTestId("node-row-peer0-org1").waitFor();
    await s.page.waitForFunction(
      () => document.querySelector('[data-testid="node-status"]')?.getAttribute("data-status") === "RUNNING",
      undefined,
      { timeout: 60_000 },
    );
    await screenshot(s.page, `nodes-${theme}-${size}`);
    await s.page.goto(`/nodes/${nodeId}`);
    await s.page.getByRole("heading", { name: "peer0-org1" }).waitFor();
    await screenshot(s.page, `node-detail-${theme}-${size}`);
    await s.page.getByRole("tab", { name: "Logs" }).click();
    await s.page
      .getByRole("log", { name: "Node log" })
      .getByText(/Started peer/)
      .first()
      .waitFor({ timeout: 30_000 });
    await screenshot(s.page, `node-logs-${theme}-${size}`);
    await s.page.goto("/nodes/fabric/create");
    await s.page.getByRole("heading", { name: "Create Fabric Node" }).waitFor();
    await s.page.waitForFunction(() =>
      Boolean((document.getElementById("fabric-listenAddress") as HTMLInputElement | null)?.value),
    );
    await screenshot(s.page, `node-create-${theme}-${size}`);
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
