import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminUser, openAs, openSession, screenshot, type Session } from "../support/browser.js";

/** Settings → MCP against the real server: a viewer key made on the screen works with the endpoint shown. */
describe("settings: MCP", () => {
  let s: Session;
  beforeAll(async () => {
    s = await openSession();
  });
  afterAll(async () => {
    await s.close();
  });

  it("creates a viewer key, shows endpoint and tools, and copies a config that works", async () => {
    const { page } = s;
    await openAs(s, adminUser(), "/settings/general");
    await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "MCP" }).click();
    await page.waitForURL("**/settings/mcp");
    const endpoint = (await page.getByTestId("mcp-endpoint").innerText()).trim();
    expect(endpoint).toMatch(/\/api\/v1\/mcp$/);
    await page.getByText("streamable-http").waitFor();
    const toolsHeading = await page.getByRole("heading", { name: /^Tools \(\d+\)$/ }).innerText();
    const allTools = Number(/\d+/.exec(toolsHeading)?.[0]);
    expect(await page.getByText("read-only", { exact: true }).count()).toBeGreaterThan(0);
    await page.getByText('X-API-Key: <YOUR_API_KEY>"').first().waitFor();

    await page.getByLabel("Name").fill("mcp-e2e-viewer");
    await page.getByRole("combobox", { name: "Role" }).click();
    await page.getByRole("option", { name: "Viewer" }).click();
    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByText("Copy your new key now").waitFor();
    const secret = (await page.getByTestId("mcp-key-secret").innerText()).trim();
    await page.setViewportSize({ width: 1280, height: 2400 });
    await screenshot(page, "settings-mcp-key-created");
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(secret.length).toBeGreaterThan(16);

    await page.getByRole("tab", { name: "VS Code" }).click();
    await page.getByRole("button", { name: "Copy .vscode/mcp.json" }).click();
    const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as {
      servers: { chainlaunch: { type: string; url: string; headers: Record<string, string> } };
    };
    expect(copied.servers.chainlaunch).toEqual({ type: "http", url: endpoint, headers: { "X-API-Key": secret } });

    // The copied config is what a client sends: the viewer key lists the read tools, none that operate nodes.
    const res = await fetch(copied.servers.chainlaunch.url, {
      method: "POST",
      headers: {
        ...copied.servers.chainlaunch.headers,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(res.status).toBe(200);
    const names = ((await res.json()) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
    expect(names).toContain("list_nodes");
    expect(names).not.toContain("stop_node");
    expect(names.length).toBeLessThan(allTools);

    await page.getByRole("button", { name: "I have saved it" }).click();
    await page.getByRole("heading", { name: "Create API key for MCP" }).waitFor();
    expect(await page.getByText(secret).count()).toBe(0);
  });
});
