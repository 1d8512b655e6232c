import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBesuRpc } from "./rpc.js";

/**
 * CONTRACT TEST, not an end-to-end test: no Besu runs here. Besu does not serve
 * eth_pendingTransactions (the method upstream calls) and answers it with JSON-RPC's "method not
 * found"; its own txpool_besuPendingTransactions (Besu's API reference, "TXPOOL methods") takes the
 * maximum number of results. A local server answers as Besu does; the txpool_content path runs
 * against a real node (anvil) in modules/node-rpc/node-rpc.reads.test.ts.
 */
describe("pending transactions on a node without eth_pendingTransactions (Besu)", () => {
  let server: Server;
  let url: string;
  const seen: Array<{ method: string; params: unknown[] }> = [];
  const pooled = {
    blockHash: null,
    blockNumber: null,
    from: "0xfe3b557e8fb62b89f4916b721be55ceb828dbd73",
    gas: "0x5208",
    hash: "0x8a5b1b3d4d7d2a0a9a0a2a1bb4b8d1b9bce8c8c0f0b2f0e5a5f3e3c2b1a09f8e",
    nonce: "0x1",
    to: "0x627306090abab3a6e1400e9345bc60c78a8bef57",
    value: "0x1",
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const msg = JSON.parse(body) as { id: number; method: string; params: unknown[] };
        seen.push({ method: msg.method, params: msg.params });
        res.setHeader("content-type", "application/json");
        res.end(
          JSON.stringify(
            msg.method === "txpool_besuPendingTransactions"
              ? { jsonrpc: "2.0", id: msg.id, result: [pooled] }
              : { jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "Method not found" } },
          ),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const addr = server.address();
    url = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
  });
  afterAll(() => server.close());

  it("asks eth_pendingTransactions, then Besu's txpool_besuPendingTransactions with the result limit", async () => {
    expect(await createBesuRpc(url).pendingTransactions(50)).toEqual([pooled]);
    expect(seen.map((m) => m.method)).toEqual(["eth_pendingTransactions", "txpool_besuPendingTransactions"]);
    expect(seen[1]?.params).toEqual([50]);
  });
});
