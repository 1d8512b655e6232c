import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { resolvePrometheus } from "../modules/metrics/prometheus-binary.js";
import { insertNodeRow, type TestApp } from "./test-app.js";

/**
 * Test-only stand-ins for what the managed Prometheus scrapes: a metrics endpoint in Prometheus's text
 * format (a node's operations server) and the node row that points the scrape configuration at it.
 * The end-to-end tests scrape real peers and orderers instead.
 */

/** Whether Debian's `prometheus` is there; prints why `what` is skipped when it is not. */
export function prometheusAvailable(what: string): boolean {
  try {
    resolvePrometheus();
    return true;
  } catch (err) {
    console.warn(`skipping ${what}: ${(err as Error).message}`);
    return false;
  }
}

/** Serves `ledger_blockchain_height{channel}` (plus `extra` lines) on /metrics of a free loopback port. */
export async function startExporter(
  height: number,
  channel: string,
  extra: string[] = [],
): Promise<{ server: Server; address: string }> {
  const body = [
    "# HELP ledger_blockchain_height Height of the chain in blocks.",
    "# TYPE ledger_blockchain_height gauge",
    `ledger_blockchain_height{channel="${channel}"} ${height}`,
    ...extra,
    "",
  ].join("\n");
  const server = createServer((req, res) => {
    if (req.url !== "/metrics") return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/plain; version=0.0.4" });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, address: `127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A RUNNING Fabric peer row whose operations address is `address` (so the console scrapes it). */
export function insertScrapedPeer(t: TestApp, slug: string, address: string): Promise<{ id: number; slug: string }> {
  return insertNodeRow(t, {
    name: slug,
    nodeType: "FABRIC_PEER",
    deployment: { kind: "fabric", role: "peer", operationsAddress: address, ports: [] },
  });
}
