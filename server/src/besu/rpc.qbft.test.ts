import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assessValidatorChange, createBesuRpc } from "./rpc.js";

/**
 * CONTRACT TESTS, not end-to-end tests: no Besu runs here (none of anvil, geth or hardhat implements
 * qbft_*). A local HTTP server records the exact JSON-RPC requests we send and answers with the
 * result shapes from Besu's private-network API reference
 * (https://besu.hyperledger.org/private-networks/reference/api, "QBFT methods").
 */
describe("qbft_* requests (contract tests against Besu's documented method names and params)", () => {
  let server: Server;
  let url: string;
  const seen: Array<{ jsonrpc: string; method: string; params: unknown[]; id: number }> = [];
  const results: Record<string, unknown> = {
    qbft_getValidatorsByBlockNumber: [
      "0x42d4287eac8078828cf5f3486cfe601a275a49a5",
      "0xb1b2bc9582d2901afdc579f528a35ca41403fa85",
    ],
    qbft_getValidatorsByBlockHash: ["0x42d4287eac8078828cf5f3486cfe601a275a49a5"],
    qbft_getPendingVotes: { "0xef1bfb6a12794615c9b0b5a21e6741f01e570185": true },
    qbft_getSignerMetrics: [
      {
        address: "0x7ffc57839b00206d1ad20c69a1981b489f772031",
        proposedBlockCount: "0x1a",
        lastProposedBlockNumber: "0x5c",
      },
    ],
    qbft_getRequestTimeoutSeconds: 10,
    qbft_proposeValidatorVote: true,
    qbft_discardValidatorVote: true,
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const msg = JSON.parse(body);
        seen.push(msg);
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result: results[msg.method] }));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const addr = server.address();
    url = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
  });
  afterAll(() => server.close());

  /** The last request, with addresses lowercased (we send EIP-55 checksummed ones; Besu accepts any case). */
  const last = () => {
    const m = seen[seen.length - 1]!;
    return {
      ...m,
      params: m.params.map((p) => (typeof p === "string" && /^0x[0-9a-fA-F]{40}$/.test(p) ? p.toLowerCase() : p)),
    };
  };

  it("sends each method with Besu's documented params", async () => {
    const rpc = createBesuRpc(url);
    const v = "0xef1bfb6a12794615c9b0b5a21e6741f01e570185";
    const blockHash = "0x98b2ddb1d6d8dc7e7b8bd7a9ae6d1dd7e8a0e0a9c6c1b0b7e2cfa8e3c51c7b1a";

    expect(await rpc.qbftValidatorsByBlockNumber("latest")).toHaveLength(2);
    expect(last()).toMatchObject({ jsonrpc: "2.0", method: "qbft_getValidatorsByBlockNumber", params: ["latest"] });
    await rpc.qbftValidatorsByBlockNumber("100");
    expect(last().params).toEqual(["0x64"]);
    await rpc.qbftValidatorsByBlockHash(blockHash);
    expect(last()).toMatchObject({ method: "qbft_getValidatorsByBlockHash", params: [blockHash] });
    expect(await rpc.qbftPendingVotes()).toEqual({ [v]: true });
    expect(last()).toMatchObject({ method: "qbft_getPendingVotes", params: [] });
    expect(await rpc.qbftSignerMetrics()).toHaveLength(1);
    expect(last()).toMatchObject({ method: "qbft_getSignerMetrics", params: [] });
    await rpc.qbftSignerMetrics("1", "latest");
    expect(last().params).toEqual(["0x1", "latest"]);
    expect(await rpc.qbftRequestTimeout()).toBe(10);
    expect(last()).toMatchObject({ method: "qbft_getRequestTimeoutSeconds", params: [] });
    expect(await rpc.qbftProposeValidatorVote(v, true)).toBe(true);
    expect(last()).toMatchObject({ method: "qbft_proposeValidatorVote", params: [v, true] });
    await rpc.qbftProposeValidatorVote(v, false);
    expect(last().params).toEqual([v, false]);
    expect(await rpc.qbftDiscardValidatorVote(v)).toBe(true);
    expect(last()).toMatchObject({ method: "qbft_discardValidatorVote", params: [v] });
  });

  it("refuses malformed validator addresses before sending", async () => {
    const rpc = createBesuRpc(url);
    const before = seen.length;
    await expect(rpc.qbftProposeValidatorVote("0xnope", true)).rejects.toThrow(/^validatorAddress: /);
    expect(seen.length).toBe(before);
  });
});

describe("assessValidatorChange (QBFT needs > 2/3 honest validators)", () => {
  it("warns when a vote lowers fault tolerance or leaves none", () => {
    expect(assessValidatorChange(4, "remove")).toMatchObject({
      after: 3,
      faultToleranceBefore: 1,
      faultToleranceAfter: 0,
    });
    expect(assessValidatorChange(4, "remove").warning).toMatch(/2\/3 quorum/);
    expect(assessValidatorChange(4, "add").warning).toBeUndefined();
    expect(assessValidatorChange(7, "remove")).toMatchObject({ after: 6, faultToleranceAfter: 1 });
    expect(assessValidatorChange(7, "remove").warning).toMatch(/tolerates 1/);
    expect(assessValidatorChange(1, "remove").warning).toMatch(/last validator/);
  });
});
