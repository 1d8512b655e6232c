import type { ReactElement } from "react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createApiKey } from "@/data/api-keys/api-key-create-mutation";
import { mcpKeys } from "@/data/mcp/keys";
import type { McpInfo } from "@/data/mcp/mcp-info-query";
import { McpSettingsPage, McpSettingsView } from "@/pages/settings/McpSettingsPage";
import { mcpKeyBody } from "@/pages/settings/mcp/mcp-config";
import { asRole, failing, screenHtml, screenText as rawText, seed, type Seed } from "@/test-support/static-screen";

// The typed client takes fetch when it is created, so the stand-in goes in before any import runs.
const http = await vi.hoisted(async () => (await import("@/test-support/fetch-mock")).installFetchMock());

const info: McpInfo = {
  name: "chainlaunch",
  version: "0.9.0",
  transport: "streamable-http",
  endpoint: "http://console.test/api/v1/mcp",
  authentication: "API key: X-API-Key header or Authorization: Bearer <key>",
  tools: [
    { name: "listNodes", description: "List nodes", read_only: true },
    { name: "createNode", description: "Create a node", read_only: false },
  ],
};
const SECRET = "cl_secret_0123456789";
const created = { id: 12, name: "mcp-2026-11-26", role: "viewer" as const, secret: SECRET };
const noop = (): void => {};
/** The screen's text with the angle brackets of `<YOUR_API_KEY>` decoded. */
const screenText = (el: ReactElement, route: string, path: string, ...seeds: Seed[]): string =>
  rawText(el, route, path, ...seeds)
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");

beforeEach(() => http.reset());

describe("Settings → MCP", () => {
  it("shows the endpoint, transport, version, authentication and tools", () => {
    const text = screenText(<McpSettingsPage />, "/settings/mcp", "/settings/mcp", seed(mcpKeys.info(), info));
    expect(text).toContain("http://console.test/api/v1/mcp");
    expect(text).toContain("Copy URL");
    expect(text).toContain("streamable-http");
    expect(text).toContain("chainlaunch 0.9.0");
    expect(text).toContain("X-API-Key header or Authorization: Bearer");
    expect(text).toContain("Tools (2)");
    expect(text).toMatch(/listNodes read-only List nodes/);
    expect(text).toMatch(/createNode Create a node/);
    expect(text).not.toMatch(/createNode read-only/);
    expect(text).toContain("A key only sees the tools its role may call");
  });

  it("renders the loading and error states", () => {
    expect(screenText(<McpSettingsPage />, "/settings/mcp", "/settings/mcp")).not.toContain("Endpoint");
    expect(screenText(<McpSettingsPage />, "/settings/mcp", "/settings/mcp", failing(mcpKeys.info()))).toContain(
      "database is locked",
    );
  });

  it("offers a form with roles no wider than the user's and the placeholder in configs", () => {
    const viewerText = screenText(
      <McpSettingsPage />,
      "/settings/mcp",
      "/settings/mcp",
      seed(mcpKeys.info(), info),
      asRole("viewer"),
    );
    expect(viewerText).toContain("Create API key for MCP");
    expect(screenHtml(<McpSettingsPage />, "/settings/mcp", "/settings/mcp", seed(mcpKeys.info(), info))).toMatch(
      /id="mcp-key-name"[^>]*value="mcp-\d{4}-\d{2}-\d{2}"/,
    );
    expect(viewerText).toContain("viewer : Read tools");
    expect(viewerText).not.toContain("manager :");
    expect(viewerText).toContain('X-API-Key: <YOUR_API_KEY>"');
    const adminText = screenText(
      <McpSettingsPage />,
      "/settings/mcp",
      "/settings/mcp",
      seed(mcpKeys.info(), info),
      asRole("admin"),
    );
    expect(adminText).toContain("admin : Every tool");
    expect(adminText).toContain("manager : Read tools plus operating tools");
  });

  it("posts the form's body to /api-keys and returns the secret", async () => {
    const body = mcpKeyBody({ name: "mcp-2026-11-26", role: "viewer", expires: "90d" });
    http.respond("POST", "/api-keys", 201, {
      api_key: { id: 12, name: "mcp-2026-11-26", role: "viewer" },
      key: SECRET,
    });
    await expect(createApiKey(body)).resolves.toMatchObject({ key: SECRET });
    expect(http.calls).toEqual([
      {
        method: "POST",
        path: "/api-keys",
        query: "",
        body: {
          name: "mcp-2026-11-26",
          description: "MCP client (created on Settings → MCP)",
          role: "viewer",
          expires_in: "90d",
        },
      },
    ]);
  });

  it("surfaces the server's field message", async () => {
    http.respond("POST", "/api-keys", 400, {
      error: "INVALID_INPUT",
      message: "body.role: wider than yours",
      requestId: "r",
    });
    await expect(createApiKey(mcpKeyBody({ name: "k", role: "admin", expires: "never" }))).rejects.toMatchObject({
      status: 400,
      message: "body.role: wider than yours",
    });
  });

  it("shows a just-created secret once, with a warning and copy button, and fills it into the configs", () => {
    const view = (c: typeof created | null): string =>
      screenText(
        <McpSettingsView info={info} myRole="admin" created={c} pending={false} onCreate={noop} onDismiss={noop} />,
        "/",
        "/",
      );
    const text = view(created);
    expect(text).toContain("Copy your new key now");
    expect(text).toContain("This is the only time the key mcp-2026-11-26 (viewer) is shown");
    expect(text).toContain("Copy key");
    expect(text).toContain(
      `claude mcp add --transport http chainlaunch http://console.test/api/v1/mcp --header "X-API-Key: ${SECRET}"`,
    );
    expect(text).not.toContain("<YOUR_API_KEY>");
    expect(text).not.toContain("Create API key for MCP");
    // Dismissed (or on the next visit), the secret is nowhere on the screen.
    const after = view(null);
    expect(after).not.toContain(SECRET);
    expect(after).toContain("<YOUR_API_KEY>");
    expect(after).toContain("Create API key for MCP");
  });
});
