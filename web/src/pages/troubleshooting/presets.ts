import type { NodeInfo } from "@/api/client";
import type { ConnectionTestRequest } from "@/data/troubleshooting/troubleshooting-api";

/** One ready-made connection test built from a node of this console. */
export interface ConnectionPreset {
  /** Stable key: node id and target. */
  id: string;
  nodeId: number;
  node: string;
  /** What is tested: "gRPC", "Operations", "Admin" or "JSON-RPC". */
  target: string;
  request: ConnectionTestRequest;
}

const WILDCARDS = new Set(["", "0.0.0.0", "::", "[::]", "*"]);

/** host and port of "host:port" (IPv6 in brackets kept as is); undefined when there is no port. */
export function splitHostPort(address: string): { host: string; port: string } | undefined {
  const m = /^(\[[^\]]*\]|[^:]*):(\d+)$/.exec(address.trim());
  return m ? { host: m[1] ?? "", port: m[2] ?? "" } : undefined;
}

/**
 * A listen address the console can dial: a wildcard host (0.0.0.0, ::) becomes the node's
 * external host, so the name matches the TLS certificate's SANs (they hold it, localhost and 127.0.0.1).
 */
function dialable(listen: string, fallbackHost: string): string | undefined {
  const hp = splitHostPort(listen);
  if (!hp) return undefined;
  return `${WILDCARDS.has(hp.host) ? fallbackHost : hp.host}:${hp.port}`;
}

/**
 * The presets of the console's own nodes: every peer's and orderer's gRPC endpoint (grpcs) and
 * operations /healthz (plain http, as the console configures it), every orderer's channel
 * participation API (tls: it needs a client certificate, so a handshake is what can be checked),
 * and every Besu node's JSON-RPC (http).
 */
export function buildPresets(nodes: readonly NodeInfo[]): ConnectionPreset[] {
  const out: ConnectionPreset[] = [];
  const add = (n: NodeInfo, target: string, request: ConnectionTestRequest): void => {
    out.push({ id: `${n.id}-${target}`, nodeId: n.id, node: n.name, target, request });
  };
  for (const n of nodes) {
    const fabric = n.fabricPeer ?? n.fabricOrderer;
    if (fabric) {
      const grpc = n.endpoint || fabric.externalEndpoint || dialable(fabric.listenAddress, "127.0.0.1");
      const host = (grpc && splitHostPort(grpc)?.host) || "127.0.0.1";
      if (grpc) add(n, "gRPC", { endpoint: grpc, protocol: "grpcs" });
      const ops = dialable(fabric.operationsAddress, host);
      if (ops) add(n, "Operations", { endpoint: `http://${ops}/healthz`, protocol: "http" });
      const admin = n.fabricOrderer ? dialable(n.fabricOrderer.adminAddress, host) : undefined;
      if (admin) add(n, "Admin", { endpoint: admin, protocol: "tls" });
    }
    if (n.besuNode) {
      const rpc = dialable(`${n.besuNode.rpcHost}:${n.besuNode.rpcPort}`, "127.0.0.1");
      if (rpc) add(n, "JSON-RPC", { endpoint: `http://${rpc}`, protocol: "http" });
    }
  }
  return out;
}

/** Runs `work` over `items` with at most `limit` at a time (the server rate-limits, the host has few cores). */
export async function runPool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
