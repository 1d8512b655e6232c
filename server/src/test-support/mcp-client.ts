import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { TestApp } from "./test-app.js";

/** An API key of `role` made by the admin; returns the secret. */
export async function apiKey(t: TestApp, role: "admin" | "manager" | "viewer", name = `mcp-${role}`): Promise<string> {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/v1/api-keys",
    headers: t.admin,
    payload: { name, role },
  });
  if (res.statusCode !== 201) throw new Error(`creating the ${role} key failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { key: string }).key;
}

/** The official MCP SDK client, connected over Streamable HTTP with an API key. */
export async function mcpClient(baseUrl: string, key: string): Promise<Client> {
  const client = new Client({ name: "chainlaunch-test-client", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/api/v1/mcp`), {
      requestInit: { headers: { "X-API-Key": key } },
    }),
  );
  return client;
}

/** The text of a tool result's first content block, parsed as JSON when it is JSON. */
export function toolJson(result: unknown): unknown {
  const text = ((result as { content?: { text?: string }[] }).content ?? [])[0]?.text ?? "";
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
