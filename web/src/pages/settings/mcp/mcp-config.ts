import type { Role } from "@/api/client";

/** Stands in for the secret in the configs until a key is created on this screen. */
export const KEY_PLACEHOLDER = "<YOUR_API_KEY>";

/** The server name MCP clients list the console under. */
export const SERVER_NAME = "chainlaunch";

/** The MCP clients we give a ready-to-paste config for, in tab order. */
export type McpClient = "claude" | "cursor" | "vscode" | "curl";

export interface McpSnippet {
  /** A short heading, e.g. the file to paste into. */
  title: string;
  /** The text to copy. */
  text: string;
}

/** The snippets for one client: the endpoint URL and the key (or the placeholder). */
export function mcpClientConfigs(client: McpClient, url: string, key?: string): McpSnippet[] {
  const secret = key || KEY_PLACEHOLDER;
  const headers = { "X-API-Key": secret };
  const json = (v: unknown): string => JSON.stringify(v, null, 2);
  switch (client) {
    case "claude":
      return [
        {
          title: "Claude Code (terminal)",
          text: `claude mcp add --transport http ${SERVER_NAME} ${url} --header "X-API-Key: ${secret}"`,
        },
        {
          title: "Claude Desktop / .mcp.json",
          text: json({ mcpServers: { [SERVER_NAME]: { type: "http", url, headers } } }),
        },
      ];
    case "cursor":
      return [{ title: ".cursor/mcp.json", text: json({ mcpServers: { [SERVER_NAME]: { url, headers } } }) }];
    case "vscode":
      return [
        { title: ".vscode/mcp.json", text: json({ servers: { [SERVER_NAME]: { type: "http", url, headers } } }) },
      ];
    case "curl":
      return [{ title: "Check the connection with curl", text: curlInitialize(url, secret) }];
  }
}

/** The MCP `initialize` handshake as one curl call, to check the URL and the key by hand. */
function curlInitialize(url: string, secret: string): string {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "curl", version: "1.0" } },
  });
  return [
    `curl -sS -X POST ${url} \\`,
    `  -H "X-API-Key: ${secret}" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -H "Accept: application/json, text/event-stream" \\`,
    `  -d '${body}'`,
  ].join("\n");
}

/** The roles a user may give a key: their own or a narrower one (the server enforces the same). */
export function rolesUpTo(role: Role): Role[] {
  const order: Role[] = ["admin", "manager", "viewer"];
  return order.slice(order.indexOf(role));
}

/** What an assistant can do with a key of each role. */
export const ROLE_REACH: Record<Role, string> = {
  viewer:
    "Read tools: list and inspect nodes, networks and keys, query metrics and chaincodes. Cannot change infrastructure.",
  manager:
    "Read tools plus operating tools: create, change, start, stop and delete nodes, networks, chaincodes and keys.",
  admin: "Every tool, including users and settings. Give this only to an assistant you trust with the whole console.",
};

/** Expiry choices, in the API's `expires_in` form; "never" sends none. */
export const MCP_KEY_EXPIRY = [
  { value: "never", label: "Never" },
  { value: "7d", label: "7 days" },
  { value: "30d", label: "30 days" },
  { value: "90d", label: "90 days" },
  { value: "365d", label: "1 year" },
] as const;

export interface McpKeyForm {
  name: string;
  role: Role;
  expires: string;
}

/** The default key name, e.g. "mcp-2026-11-26", so keys made here are easy to find and revoke. */
export function defaultMcpKeyName(now: Date): string {
  return `mcp-${now.toISOString().slice(0, 10)}`;
}

/** The `POST /api-keys` body for the form: trimmed name, the role, and an expiry unless "never". */
export function mcpKeyBody(form: McpKeyForm): { name: string; description: string; role: Role; expires_in?: string } {
  return {
    name: form.name.trim(),
    description: "MCP client (created on Settings → MCP)",
    role: form.role,
    ...(form.expires !== "never" ? { expires_in: form.expires } : {}),
  };
}

/** A problem with the form, named by its API field, or null. */
export function validateMcpKeyForm(form: McpKeyForm): string | null {
  const name = form.name.trim();
  if (!name) return "name: required";
  if (name.length > 100) return "name: at most 100 characters";
  return null;
}
