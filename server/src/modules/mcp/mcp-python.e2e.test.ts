import { execFile } from "node:child_process";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKey, mcpClient } from "../../test-support/mcp-client.js";
import { MCP_PYTHON_SESSION, mcpPython } from "../../test-support/mcp-python.js";
import { createTestApp, dialects, insertNodeRow, type TestApp } from "../../test-support/test-app.js";
import { waitFor } from "../../test-support/wait.js";

const run = promisify(execFile);
const py = await mcpPython();
if ("skip" in py) console.warn(`skipping the MCP Python SDK e2e: ${py.skip}`);

/** What the listening server saw: every HTTP request, and whether its response has ended. */
interface Seen {
  method: string;
  accept: string;
  status?: number;
  open: boolean;
}

/**
 * Issue 29, item 10: `GET /api/v1/mcp` with `Accept: text/event-stream` (sent once per session by the
 * official SDKs and the Inspector) never answered, and the per-request MCP server was never closed.
 * The official Python SDK (PyPI `mcp`, in a venv made by `scripts/system-deps.sh test`) runs a whole
 * session against a listening console with a manager's API key: initialize, list tools, call one,
 * leave. Then the TypeScript SDK does the same (it opens the GET stream), the GET and DELETE are asked
 * directly, and the server must have no request left open and close at once.
 */
describe.each(dialects())("MCP over Streamable HTTP with the official SDKs on %s", (dialect) => {
  let t: TestApp;
  let base: string;
  let closed = false;
  const seen: Seen[] = [];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    t.app.server.on("request", (req: IncomingMessage, res: ServerResponse) => {
      const entry: Seen = { method: req.method ?? "", accept: String(req.headers.accept ?? ""), open: true };
      seen.push(entry);
      res.once("close", () => {
        entry.open = false;
        entry.status = res.statusCode;
      });
    });
  });
  afterAll(async () => {
    if (!closed) await t.close();
  });

  const openRequests = (): Seen[] => seen.filter((s) => s.open);

  it.skipIf("skip" in py)(
    "the Python SDK completes a session and a tool call, and nothing is left open",
    { timeout: 120_000 },
    async () => {
      const python = (py as { python: string }).python;
      await insertNodeRow(t, { name: "py-mcp-peer", nodeType: "FABRIC_PEER", deployment: {} });
      const key = await apiKey(t, "manager", "mcp-python");
      const t0 = Date.now();
      const { stdout } = await run(python, [MCP_PYTHON_SESSION, `${base}/api/v1/mcp`, key, "list_nodes"], {
        timeout: 60_000,
      });
      const took = Date.now() - t0;
      const out = JSON.parse(stdout.trim().split("\n").pop()!) as {
        server: string;
        tools: number;
        listed: boolean;
        is_error: boolean;
        text: string;
      };
      expect(out).toMatchObject({ server: "chainlaunch", listed: true, is_error: false });
      expect(out.tools).toBeGreaterThan(20);
      expect(out.text).toContain("py-mcp-peer");
      expect(took).toBeLessThan(30_000);
      await waitFor("no open request", async () => (openRequests().length === 0 ? true : undefined), 5000, 50);
      expect(seen.filter((s) => s.method === "POST" && s.status === 200).length).toBeGreaterThanOrEqual(3);
    },
  );

  it("answers the SSE GET and the session DELETE at once with 405 and Allow: POST", async () => {
    const key = await apiKey(t, "manager", "mcp-probe");
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(`${base}/api/v1/mcp`, {
        method,
        headers: { "x-api-key": key, accept: "text/event-stream" },
        signal: AbortSignal.timeout(5000),
      });
      expect(res.status, method).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      expect(((await res.json()) as { message: string }).message).toMatch(/stateless.*POST/);
    }
    // A Basic caller is still refused first (API keys only), and no key at all is a 401.
    const basic = await fetch(`${base}/api/v1/mcp`, { headers: { ...t.admin, accept: "text/event-stream" } });
    expect(basic.status).toBe(403);
    expect((await fetch(`${base}/api/v1/mcp`, { headers: { accept: "text/event-stream" } })).status).toBe(401);
  });

  it("the TypeScript SDK's session (which opens the GET stream) leaves nothing open, and the server closes at once", async () => {
    const key = await apiKey(t, "manager", "mcp-ts");
    seen.length = 0;
    const client = await mcpClient(base, key);
    const tools = (await client.listTools()).tools;
    expect(tools.map((x) => x.name)).toContain("list_nodes");
    const listed = await client.callTool({ name: "list_nodes", arguments: {} });
    expect(listed.isError).toBe(false);
    await client.close();
    await waitFor("no open request", async () => (openRequests().length === 0 ? true : undefined), 5000, 50);
    const sse = seen.filter((s) => s.method === "GET" && s.accept.includes("text/event-stream"));
    expect(sse.length).toBeGreaterThan(0);
    expect(sse.every((s) => s.status === 405)).toBe(true);
    const t0 = Date.now();
    closed = true;
    await t.close();
    expect(Date.now() - t0).toBeLessThan(5000);
  });
});
