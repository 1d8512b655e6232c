import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminUser, openAs, openSession, type Session } from "../support/browser.js";
import { USERS } from "../support/users.js";

const ALL_ITEMS = [
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
];

async function sidebarItems(s: Session): Promise<string[]> {
  const nav = s.page.getByRole("navigation", { name: "Main" });
  return (await nav.getByRole("link").allInnerTexts()).map((t) => t.trim());
}

describe("shell", () => {
  let s: Session;
  beforeAll(async () => {
    s = await openSession();
  });
  afterAll(async () => {
    await s.close();
  });

  it("shows the admin every sidebar item, the PRO badge and the version", async () => {
    await openAs(s, adminUser());
    expect(await sidebarItems(s)).toEqual(ALL_ITEMS);
    await s.page.getByText("PRO", { exact: true }).first().waitFor();
    await s.page.getByText("v0.0.1-beta82").waitFor();
  });

  it("hides Users and Audit Logs from a manager, and shows the create menu", async () => {
    await openAs(s, USERS.manager);
    expect(await sidebarItems(s)).toEqual(ALL_ITEMS.filter((i) => i !== "Users" && i !== "Audit Logs"));
    await s.page.getByRole("button", { name: "Create" }).click();
    for (const item of ["Fabric Create Network", "Besu Create Network", "Fabric Join Network"]) {
      await s.page.getByRole("menuitem", { name: item }).waitFor();
    }
    await s.page.getByRole("menuitem", { name: "Besu Create Network" }).click();
    await s.page.waitForURL("**/networks/besu/bulk-create");
  });

  it("hides Plugins and Key Providers and the create menu from a viewer", async () => {
    await openAs(s, USERS.viewer);
    expect(await sidebarItems(s)).toEqual(ALL_ITEMS.filter((i) => i !== "Plugins" && i !== "Key Providers"));
    await s.page.getByRole("button", { name: "Notifications" }).waitFor();
    expect(await s.page.getByRole("button", { name: "Create" }).count()).toBe(0);
  });

  it("collapses to icons with the trigger and Ctrl+B, and remembers it", async () => {
    await openAs(s, adminUser());
    const sidebar = s.page.getByTestId("sidebar");
    expect(await sidebar.getAttribute("data-state")).toBe("expanded");
    expect(Math.round((await sidebar.boundingBox())!.width)).toBe(256);
    await s.page.getByRole("button", { name: "Toggle Sidebar" }).click();
    await s.page.waitForFunction(
      () => document.querySelector('[data-testid="sidebar"]')?.getAttribute("data-state") === "collapsed",
    );
    // The collapse is animated: wait for the width it ends at.
    await s.page.waitForFunction(
      () => Math.round(document.querySelector('[data-testid="sidebar"]')?.getBoundingClientRect().width ?? 0) === 48,
    );
    expect(Math.round((await sidebar.boundingBox())!.width)).toBe(48);
    await s.page.reload();
    await s.page.getByRole("button", { name: "User menu" }).waitFor();
    expect(await s.page.getByTestId("sidebar").getAttribute("data-state")).toBe("collapsed");
    await s.page.keyboard.press("Control+b");
    await s.page.waitForFunction(
      () => document.querySelector('[data-testid="sidebar"]')?.getAttribute("data-state") === "expanded",
    );
    await s.page.keyboard.press("Meta+b");
    await s.page.waitForFunction(
      () => document.querySelector('[data-testid="sidebar"]')?.getAttribute("data-state") === "collapsed",
    );
    await s.page.keyboard.press("Control+b");
    expect(await s.page.evaluate(() => localStorage.getItem("chainlaunch-sidebar-state"))).toBe("expanded");
  });

  it("finds a page with the command palette (Ctrl+K)", async () => {
    await s.page.goto("/dashboard");
    await s.page.getByRole("button", { name: "User menu" }).waitFor();
    await s.page.keyboard.press("Control+k");
    const input = s.page.getByPlaceholder("Type a command or search...");
    await input.waitFor();
    await input.fill("qqqzzzx");
    await s.page.getByText("No results found.").waitFor();
    await input.fill("audit");
    await s.page.getByRole("option", { name: "Audit Logs" }).waitFor();
    await s.page.keyboard.press("Enter");
    await s.page.waitForURL("**/settings/audit-logs");
    await s.page.getByRole("heading", { name: "Audit Logs" }).waitFor();
    expect(await s.page.title()).toBe("Audit Logs | ChainLaunch");
  });

  it("switches theme between Light, Dark and System", async () => {
    const isDark = (): Promise<boolean> => s.page.evaluate(() => document.documentElement.classList.contains("dark"));
    await s.page.getByRole("button", { name: "Toggle theme" }).click();
    await s.page.getByRole("menuitemradio", { name: "Dark" }).click();
    expect(await isDark()).toBe(true);
    await s.page.reload();
    await s.page.getByRole("button", { name: "User menu" }).waitFor();
    expect(await isDark()).toBe(true);
    await s.page.getByRole("button", { name: "Toggle theme" }).click();
    await s.page.getByRole("menuitemradio", { name: "Light" }).click();
    expect(await isDark()).toBe(false);
    await s.page.getByRole("button", { name: "Toggle theme" }).click();
    await s.page.getByRole("menuitemradio", { name: "System" }).click();
    expect(await s.page.evaluate(() => localStorage.getItem("chainlaunch-theme"))).toBe("system");
    expect(await isDark()).toBe(false); // the context prefers light
  });

  it("draws the API documentation dark in dark mode", async () => {
    // The luminance (0 black, 1 white) of what the eye sees behind the docs' first heading: the nearest opaque
    // background, inverted once for each CSS invert filter on that element or above it.
    const shade = (): Promise<number> =>
      s.page.evaluate(() => {
        let el = document.querySelector(".swagger-ui .info .title") as HTMLElement | null;
        let bg: string | undefined;
        let inverted = false;
        for (; el; el = el.parentElement) {
          const st = getComputedStyle(el);
          if (!bg && st.backgroundColor !== "rgba(0, 0, 0, 0)") bg = st.backgroundColor;
          if (bg && st.filter.includes("invert")) inverted = !inverted;
        }
        const [r, g, b] = ((bg ?? "rgb(255, 255, 255)").match(/[\d.]+/g) ?? []).map(Number) as [number, number, number];
        const l = (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
        return inverted ? 1 - l : l;
      });
    await s.page.goto("/docs");
    await s.page.locator(".swagger-ui .info .title").waitFor({ timeout: 30_000 });
    expect(await shade()).toBeGreaterThan(0.8);
    await s.page.getByRole("button", { name: "Toggle theme" }).click();
    await s.page.getByRole("menuitemradio", { name: "Dark" }).click();
    await expect.poll(shade).toBeLessThan(0.25);
    await s.page.getByRole("button", { name: "Toggle theme" }).click();
    await s.page.getByRole("menuitemradio", { name: "Light" }).click();
  });
});
