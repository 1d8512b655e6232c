import type { AddressInfo } from "node:net";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, describe, expect, it } from "vitest";
import {
  E2E_FABRIC_VERSION as VERSION,
  fabricApi,
  haveFabricBinaries,
  type FabricApi,
  type Json,
} from "../../test-support/fabric-api.js";
import { apiKey, mcpClient, toolJson } from "../../test-support/mcp-client.js";
import { waitFor } from "../../test-support/wait.js";

/**
 * The official MCP SDK client drives a real peer: with an admin key it stops and starts the peer
 * through tools and reads its status; a viewer key's stop is refused; both calls are audited.
 * Skipped without binaries.
 */
const bins = await haveFabricBinaries("MCP e2e");
let harness: FabricApi | undefined;
const clients: Client[] = [];
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await harness?.close();
});

describe("MCP tools on a real node", () => {
  it.skipIf(!bins)(
    `stops and starts a running peer through tools (Fabric ${VERSION})`,
    { timeout: 180_000 },
    async () => {
      const h = await fabricApi({ portCount: 30 });
      harness = h;
      await h.t.app.listen({ port: 0, host: "127.0.0.1" });
      const base = `http://127.0.0.1:${(h.t.app.server.address() as AddressInfo).port}`;
      const org = await h.ok("POST", "/organizations", { mspId: "McpOrgMSP", name: "MCP Org" });
      const [peer] = (await h.createNodes(org, 1, 0, "mcp-")) as [Json];
      const admin = await mcpClient(base, await apiKey(h.t, "admin"));
      const viewer = await mcpClient(base, await apiKey(h.t, "viewer"));
      clients.push(admin, viewer);
      const status = async (c: Client) =>
        (toolJson(await c.callTool({ name: "get_node", arguments: { id: peer.id } })) as Json).status as string;

      expect(await status(admin)).toBe("RUNNING");
      const refused = await viewer.callTool({ name: "stop_node", arguments: { id: peer.id } });
      expect(refused.isError).toBe(true);
      expect(await status(viewer)).toBe("RUNNING");

      const stopped = await admin.callTool({ name: "stop_node", arguments: { id: peer.id } });
      expect(stopped.isError, JSON.stringify(stopped)).toBe(false);
      await waitFor("STOPPED", async () => ((await status(admin)) === "STOPPED" ? true : undefined), 30_000);
      expect(h.nodeProcesses()).toEqual([]);
      const started = await admin.callTool({ name: "start_node", arguments: { id: peer.id } });
      expect(started.isError, JSON.stringify(started)).toBe(false);
      await waitFor("RUNNING again", async () => ((await status(viewer)) === "RUNNING" ? true : undefined), 60_000);
      const logs = await admin.callTool({ name: "node_logs", arguments: { id: peer.id } });
      expect(logs.isError).toBe(false);

      const audit = await waitFor(
        "audit rows",
        async () => {
          const items = (await h.ok("GET", "/audit/logs?page_size=200")).items as Json[];
          const stop = items.find((e) => e.eventType === "node.stop" && e.eventOutcome === "SUCCESS");
          const denied = items.find((e) => e.eventType === "permission.denied" && e.details?.role === "viewer");
          return stop && denied ? { stop, denied } : undefined;
        },
        15_000,
      );
      expect(audit.stop.affectedResource).toContain(String(peer.id));
    },
  );
});
