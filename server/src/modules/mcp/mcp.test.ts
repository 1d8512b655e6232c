import type { AddressInfo } from "node:net";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKey, mcpClient, toolJson } from "../../test-support/mcp-client.js";
import { createTestApp, dialects, insertNodeRow, type TestApp } from "../../test-support/test-app.js";
import { waitFor } from "../../test-support/wait.js";

/**
 * The MCP server with the official SDK client over a real listening socket: API key only, tools
 * per role, a tool call is the REST call (a viewer's stop is refused by the permission table and
 * audited), resources, and GET /mcp/info without credentials. The real stop/start of a running
 * node is in mcp.e2e.test.ts.
 */
describe.each(dialects())("MCP server on %s", (dialect) => {
  let t: TestApp;
  let base: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await t.close();
  });
  const connect = async (key: string) => {
    const c = await mcpClient(base, key);
    clients.push(c);
    return c;
  };

  it("an admin key lists every tool with its JSON Schema and OpenAPI description; a viewer key gets the read tools only", async () => {
    const admin = await connect(await apiKey(t, "admin"));
    expect(admin.getServerVersion()?.name).toBe("chainlaunch");
    const tools = (await admin.listTools()).tools;
    const stop = tools.find((x) => x.name === "stop_node");
    expect(stop).toBeDefined();
    expect(stop!.description).toMatch(/Stop a node/);
    expect(stop!.inputSchema).toMatchObject({
      type: "object",
      properties: { id: { type: "integer" } },
      required: ["id"],
    });
    expect(tools.map((x) => x.name)).toEqual(
      expect.arrayContaining(["list_nodes", "node_logs", "query_chaincode", "list_notifications"]),
    );
    const viewer = await connect(await apiKey(t, "viewer"));
    const viewerTools = (await viewer.listTools()).tools.map((x) => x.name);
    expect(viewerTools).toContain("list_nodes");
    expect(viewerTools).not.toContain("stop_node");
    expect(viewerTools).not.toContain("invoke_chaincode");
  });

  it("a viewer's stop is refused by the permission table, and both calls are in the audit log", async () => {
    const node = await insertNodeRow(t, { name: "mcp-peer", nodeType: "FABRIC_PEER", deployment: {} });
    const viewerKey = await apiKey(t, "viewer", "mcp-viewer-2");
    const viewer = await connect(viewerKey);
    const listed = await viewer.callTool({ name: "list_nodes", arguments: {} });
    expect(listed.isError).toBe(false);
    expect(JSON.stringify(toolJson(listed))).toContain("mcp-peer");
    const refused = await viewer.callTool({ name: "stop_node", arguments: { id: node.id } });
    expect(refused.isError).toBe(true);
    expect(String(toolJson(refused))).toMatch(/^HTTP 403: .*your role is viewer/);
    // Audit rows are written after each response; wait for them as a reader of the log would.
    type Row = { eventType: string; eventOutcome: string; details: unknown };
    const audit = await waitFor(
      "the MCP and REST audit rows",
      async () => {
        const body = (
          await t.app.inject({ method: "GET", url: "/api/v1/audit/logs?page_size=100", headers: t.admin })
        ).json() as { items: Row[] };
        const text = JSON.stringify(body.items.filter((e) => e.eventType === "mcp.request"));
        const ok =
          text.includes('"tool":"stop_node","status":403') &&
          text.includes('"tool":"list_nodes","status":200') &&
          body.items.some(
            (e) =>
              e.eventType === "permission.denied" &&
              JSON.stringify(e.details).includes(`"path":"/api/v1/nodes/${node.id}/stop"`) &&
              JSON.stringify(e.details).includes('"role":"viewer"'),
          );
        return ok ? body : undefined;
      },
      15_000,
    );
    expect(audit.items.length).toBeGreaterThan(0);
  });

  it("bad arguments and unknown tools are tool errors naming the argument", async () => {
    const admin = await connect(await apiKey(t, "admin", "mcp-admin-2"));
    const missing = await admin.callTool({ name: "get_node", arguments: {} });
    expect(missing.isError).toBe(true);
    expect(String(toolJson(missing))).toBe("id: required");
    const bad = await admin.callTool({ name: "get_node", arguments: { id: "abc" } });
    expect(bad.isError).toBe(true);
    expect(String(toolJson(bad))).toMatch(/^HTTP 400: .*id/);
    const unknown = await admin.callTool({ name: "drop_database", arguments: {} });
    expect(unknown.isError).toBe(true);
  });

  it("resources expose the OpenAPI document", async () => {
    const admin = await connect(await apiKey(t, "admin", "mcp-admin-3"));
    const { resources } = await admin.listResources();
    expect(resources.map((r) => r.uri)).toEqual(["chainlaunch://openapi.json"]);
    const read = await admin.readResource({ uri: "chainlaunch://openapi.json" });
    const doc = JSON.parse(String((read.contents[0] as { text: string }).text)) as { openapi: string; paths: object };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toContain("/nodes/{id}/stop");
  });

  it("takes API keys only: Basic credentials and no credentials are refused", async () => {
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    };
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const basic = await fetch(`${base}/api/v1/mcp`, {
      method: "POST",
      headers: { ...headers, ...t.admin },
      body: JSON.stringify(init),
    });
    expect(basic.status).toBe(403);
    expect(((await basic.json()) as { message: string }).message).toMatch(/API key only/);
    const none = await fetch(`${base}/api/v1/mcp`, { method: "POST", headers, body: JSON.stringify(init) });
    expect(none.status).toBe(401);
  });

  it("GET /mcp/info needs no credentials and lists the tools", async () => {
    const res = await fetch(`${base}/api/v1/mcp/info`);
    expect(res.status).toBe(200);
    const info = (await res.json()) as { name: string; transport: string; endpoint: string; tools: { name: string }[] };
    expect(info).toMatchObject({ name: "chainlaunch", transport: "streamable-http", endpoint: `${base}/api/v1/mcp` });
    expect(info.tools.map((x) => x.name)).toContain("restart_node");
  });
});
