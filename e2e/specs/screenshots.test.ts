import { afterAll, beforeAll, describe, it } from "vitest";
import { apiCall } from "../support/api.js";
import { adminUser, DESKTOP, MOBILE, openAs, openSession, screenshot, type Session } from "../support/browser.js";

const SCREENS = [
  { name: "dashboard", path: "/dashboard", ready: "Welcome back" },
  { name: "users", path: "/users", ready: "Users" },
  { name: "api-keys", path: "/settings/api-keys", ready: "API Keys" },
  { name: "audit-logs", path: "/settings/audit-logs", ready: "Audit Logs" },
  { name: "settings-general", path: "/settings/general", ready: "Settings" },
  { name: "settings-network", path: "/settings/network", ready: "Settings" },
  { name: "account", path: "/account", ready: "Account" },
  { name: "pending", path: "/nodes", ready: "Nodes" },
] as const;

/** Saves the main screens in light and dark, desktop and mobile, to e2e/artifacts/. */
describe.each([
  { theme: "light", viewport: DESKTOP, size: "desktop" },
  { theme: "dark", viewport: DESKTOP, size: "desktop" },
  { theme: "light", viewport: MOBILE, size: "mobile" },
  { theme: "dark", viewport: MOBILE, size: "mobile" },
] as const)("screenshots $theme $size", ({ theme, viewport, size }) => {
  let s: Session;
  beforeAll(async () => {
    s = await openSession({ viewport, colorScheme: theme });
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
      await s.page.waitForLoadState("networkidle");
      await s.page.waitForTimeout(250);
      await screenshot(s.page, `${sc.name}-${theme}-${size}`);
    }
    if (size === "desktop") {
      await s.page.goto("/docs");
      await s.page.locator(".swagger-ui .info").waitFor();
      await s.page.waitForTimeout(300);
      await screenshot(s.page, `docs-${theme}-${size}`);
    }
  });

  it("notifications, palette and sidebar", async () => {
    await s.page.goto("/dashboard");
    await s.page.getByRole("heading", { name: /Welcome back/ }).waitFor();
    await s.page.getByRole("button", { name: /^Notifications/ }).click();
    await s.page.getByTestId("notification-list").waitFor();
    await s.page.waitForTimeout(250);
    await screenshot(s.page, `notifications-${theme}-${size}`);
    await s.page.keyboard.press("Escape");
    await s.page.keyboard.press("Control+k");
    await s.page.getByPlaceholder("Type a command or search...").fill("set");
    await s.page.waitForTimeout(200);
    await screenshot(s.page, `palette-${theme}-${size}`);
    await s.page.keyboard.press("Escape");
    if (size === "mobile") {
      await s.page.getByRole("button", { name: "Toggle Sidebar" }).click();
      await s.page.getByTestId("sidebar-mobile").waitFor();
      await s.page.waitForTimeout(250);
      await screenshot(s.page, `sidebar-${theme}-${size}`);
    }
  });
});
