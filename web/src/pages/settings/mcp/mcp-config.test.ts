import { describe, expect, it } from "vitest";
import {
  KEY_PLACEHOLDER,
  defaultMcpKeyName,
  mcpClientConfigs,
  mcpKeyBody,
  rolesUpTo,
  validateMcpKeyForm,
} from "@/pages/settings/mcp/mcp-config";

const URL = "https://console.example.com/api/v1/mcp";
const KEY = "cl_live_abc123";

describe("MCP client configs", () => {
  it("gives Claude Code's command and Claude's mcpServers JSON with the key", () => {
    const [cli, desktop] = mcpClientConfigs("claude", URL, KEY);
    expect(cli!.text).toBe(`claude mcp add --transport http chainlaunch ${URL} --header "X-API-Key: cl_live_abc123"`);
    expect(JSON.parse(desktop!.text)).toEqual({
      mcpServers: { chainlaunch: { type: "http", url: URL, headers: { "X-API-Key": KEY } } },
    });
    expect(desktop!.text).toBe(
      [
        "{",
        '  "mcpServers": {',
        '    "chainlaunch": {',
        '      "type": "http",',
        `      "url": "${URL}",`,
        '      "headers": {',
        '        "X-API-Key": "cl_live_abc123"',
        "      }",
        "    }",
        "  }",
        "}",
      ].join("\n"),
    );
  });

  it("uses the placeholder when no key was just created", () => {
    expect(mcpClientConfigs("claude", URL)[0]!.text).toBe(
      `claude mcp add --transport http chainlaunch ${URL} --header "X-API-Key: <YOUR_API_KEY>"`,
    );
    for (const client of ["claude", "cursor", "vscode", "curl"] as const)
      for (const s of mcpClientConfigs(client, URL)) {
        expect(s.text).toContain(KEY_PLACEHOLDER);
        expect(s.text).toContain(URL);
      }
  });

  it("gives Cursor's .cursor/mcp.json with url and headers", () => {
    const [cursor] = mcpClientConfigs("cursor", URL, KEY);
    expect(cursor!.title).toBe(".cursor/mcp.json");
    expect(JSON.parse(cursor!.text)).toEqual({
      mcpServers: { chainlaunch: { url: URL, headers: { "X-API-Key": KEY } } },
    });
    expect(JSON.parse(mcpClientConfigs("cursor", URL)[0]!.text)).toEqual({
      mcpServers: { chainlaunch: { url: URL, headers: { "X-API-Key": "<YOUR_API_KEY>" } } },
    });
  });

  it("gives VS Code's .vscode/mcp.json under servers with type http", () => {
    const [vscode] = mcpClientConfigs("vscode", URL, KEY);
    expect(vscode!.title).toBe(".vscode/mcp.json");
    expect(JSON.parse(vscode!.text)).toEqual({
      servers: { chainlaunch: { type: "http", url: URL, headers: { "X-API-Key": KEY } } },
    });
  });

  it("gives a curl initialize request", () => {
    const [curl] = mcpClientConfigs("curl", URL, KEY);
    const lines = curl!.text.split("\n");
    expect(lines.slice(0, 4)).toEqual([
      `curl -sS -X POST ${URL} \\`,
      `  -H "X-API-Key: ${KEY}" \\`,
      `  -H "Content-Type: application/json" \\`,
      `  -H "Accept: application/json, text/event-stream" \\`,
    ]);
    const body = /^ {2}-d '(.*)'$/.exec(lines[4]!)?.[1];
    expect(JSON.parse(body!)).toEqual({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "curl", version: "1.0" } },
    });
  });
});

describe("MCP key form", () => {
  it("offers roles no wider than the user's", () => {
    expect(rolesUpTo("admin")).toEqual(["admin", "manager", "viewer"]);
    expect(rolesUpTo("manager")).toEqual(["manager", "viewer"]);
    expect(rolesUpTo("viewer")).toEqual(["viewer"]);
  });

  it("names keys after the day", () => {
    expect(defaultMcpKeyName(new Date("2026-11-26T03:10:00Z"))).toBe("mcp-2026-11-26");
  });

  it("builds the POST /api-keys body, without expiry for never", () => {
    expect(mcpKeyBody({ name: " mcp-x ", role: "viewer", expires: "30d" })).toEqual({
      name: "mcp-x",
      description: "MCP client (created on Settings → MCP)",
      role: "viewer",
      expires_in: "30d",
    });
    expect(mcpKeyBody({ name: "mcp-x", role: "manager", expires: "never" })).not.toHaveProperty("expires_in");
  });

  it("names the field of a problem", () => {
    expect(validateMcpKeyForm({ name: "  ", role: "viewer", expires: "never" })).toBe("name: required");
    expect(validateMcpKeyForm({ name: "x".repeat(101), role: "viewer", expires: "never" })).toBe(
      "name: at most 100 characters",
    );
    expect(validateMcpKeyForm({ name: "mcp", role: "viewer", expires: "never" })).toBeNull();
  });
});
