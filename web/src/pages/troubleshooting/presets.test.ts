import { describe, expect, it } from "vitest";
import type { NodeInfo } from "@/api/client";
import { buildPresets, runPool, splitHostPort } from "@/pages/troubleshooting/presets";

const fabric = {
  listenAddress: "0.0.0.0:7051",
  externalEndpoint: "peer0.example.com:7051",
  operationsAddress: "0.0.0.0:9443",
};
const peer = {
  id: 1,
  name: "peer0",
  nodeType: "FABRIC_PEER",
  endpoint: "peer0.example.com:7051",
  fabricPeer: fabric,
} as unknown as NodeInfo;
const orderer = {
  id: 2,
  name: "orderer0",
  nodeType: "FABRIC_ORDERER",
  endpoint: "127.0.0.1:7050",
  fabricOrderer: { ...fabric, operationsAddress: "10.0.0.2:8443", adminAddress: "0.0.0.0:7053" },
} as unknown as NodeInfo;
const besu = {
  id: 3,
  name: "besu0",
  nodeType: "BESU_FULLNODE",
  endpoint: "",
  besuNode: { rpcHost: "0.0.0.0", rpcPort: 8545 },
} as unknown as NodeInfo;

describe("buildPresets", () => {
  it("tests every peer's and orderer's gRPC and operations port, orderers' admin port and Besu RPC", () => {
    const presets = buildPresets([peer, orderer, besu]);
    expect(presets.map((p) => [p.node, p.target, p.request.protocol, p.request.endpoint])).toEqual([
      ["peer0", "gRPC", "grpcs", "peer0.example.com:7051"],
      // A wildcard listen host becomes the external host, which the TLS certificate names.
      ["peer0", "Operations", "http", "http://peer0.example.com:9443/healthz"],
      ["orderer0", "gRPC", "grpcs", "127.0.0.1:7050"],
      ["orderer0", "Operations", "http", "http://10.0.0.2:8443/healthz"],
      ["orderer0", "Admin", "tls", "127.0.0.1:7053"],
      ["besu0", "JSON-RPC", "http", "http://127.0.0.1:8545"],
    ]);
    expect(new Set(presets.map((p) => p.id)).size).toBe(presets.length);
  });

  it("skips addresses without a port and answers nothing for no nodes", () => {
    const bad = { ...peer, fabricPeer: { ...fabric, operationsAddress: "" } } as unknown as NodeInfo;
    expect(buildPresets([bad]).map((p) => p.target)).toEqual(["gRPC"]);
    expect(buildPresets([])).toEqual([]);
  });

  it("splits host:port, IPv6 in brackets included", () => {
    expect(splitHostPort("[::1]:7051")).toEqual({ host: "[::1]", port: "7051" });
    expect(splitHostPort("host:80")).toEqual({ host: "host", port: "80" });
    expect(splitHostPort("host")).toBeUndefined();
  });
});

describe("runPool", () => {
  it("runs every item with at most `limit` at once", async () => {
    let running = 0;
    let peak = 0;
    const done: number[] = [];
    await runPool([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 5));
      done.push(n);
      running -= 1;
    });
    expect(done.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(peak).toBe(3);
  });
});
